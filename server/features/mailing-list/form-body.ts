import type { FastifyInstance } from 'fastify';
import { HttpProblem } from '../../http/problem';

const OPERATION = 'receiveMailchimpWebhook';
const MAX_DEPTH = 4;
const KEY = /^([^[\]]+)((?:\[[^[\]]+\])*)$/;
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

type Tree = { [key: string]: string | Tree };

/**
 * `type=cleaned&data[email]=a%40b.de&data[merges][FNAME]=A` → `{type, data: {email, merges:
 * {FNAME}}}`: the bracketed keys Mailchimp sends, nested like PHP and `qs` do. Repeated keys
 * keep the last value; keys deeper than four levels, empty brackets and names that would
 * reach an object's prototype stay out.
 */
export function parseBracketedForm(text: string): Tree {
  const out: Tree = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const match = KEY.exec(key);
    if (!match) continue;
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]+)\]/g)].map((m) => m[1]!)];
    if (path.length > MAX_DEPTH || path.some((p) => UNSAFE.has(p))) continue;
    let node = out;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      if (typeof next === 'object') node = next;
      else node = node[part] = {};
    }
    node[path.at(-1)!] = value;
  }
  return out;
}

/**
 * Mailchimp posts its webhook form-encoded; that one operation parses such bodies (others
 * keep answering 415 for them, as before).
 */
export function registerMailingListFormBody(app: FastifyInstance) {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (request, body, done) => {
      if (request.routeOptions.config?.operation?.operationId !== OPERATION) {
        done(new HttpProblem(415, 'unsupported_media_type', 'Unsupported Media Type'), undefined);
        return;
      }
      done(null, parseBracketedForm(body as string));
    },
  );
}
