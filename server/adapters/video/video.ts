import type { Temporal } from '@js-temporal/polyfill';
import { SignJWT } from 'jose';

/**
 * Video adapters: how each meeting type (appointments.meetingType) is entered. `jitsi` is an
 * embedded room (IFrame API) with an optional room JWT; `xodosign` and `arztkonsultation`
 * open an external link stored with the appointment. A later integration replaces the
 * external adapter of its type (e.g. to create per-person links at its provider) without
 * touching the meeting handlers.
 */
export type MeetingType = 'jitsi' | 'xodosign' | 'arztkonsultation';
export type MeetingRole = 'coach' | 'client';

export interface VideoAccessInput {
  appointment: {
    id: string;
    meetingType: MeetingType;
    /** Hidden room name (appointments.video_room), never a meeting code. */
    videoRoom: string;
    externalMeetingUrl: string | null;
  };
  role: MeetingRole;
  /** How the person appears in the meeting. */
  displayName: string;
  /** The room may be entered in [from, until]; a token is valid exactly then. */
  window: { from: Temporal.Instant; until: Temporal.Instant };
  now: Date;
}

export type VideoAccess =
  | {
      kind: 'room';
      domain: string;
      scriptUrl: string;
      roomName: string;
      jwt: string | null;
      moderator: boolean;
    }
  | { kind: 'external'; url: string | null };

export interface VideoAdapter {
  access(input: VideoAccessInput): Promise<VideoAccess>;
}

export interface JitsiOptions {
  domain: string;
  scriptUrl?: string | undefined;
  /** Both set: rooms need a JWT (HS256) signed with the secret, `iss` = appId. */
  appId?: string | undefined;
  appSecret?: string | undefined;
  audience: string;
}

/**
 * Jitsi rooms. Room names are lower-cased (Jitsi Meet lower-cases the room of a URL, and
 * prosody compares the JWT's `room` claim with it). The JWT follows prosody's token auth:
 * `iss` app id, `aud`, `sub` the domain, `room`, `nbf`/`exp` the joining window, the
 * display name in `context.user.name`, and the moderator flag both in `context.user`
 * (with affiliation owner/member, for token_affiliation) and top level (token_moderation).
 */
export function createJitsiAdapter(options: JitsiOptions): VideoAdapter {
  const secret =
    options.appId && options.appSecret ? new TextEncoder().encode(options.appSecret) : null;
  const scriptUrl = options.scriptUrl ?? `https://${options.domain}/external_api.js`;
  const host = options.domain.replace(/:\d+$/, '');
  return {
    async access({ appointment, role, displayName, window, now }) {
      const roomName = appointment.videoRoom.toLowerCase();
      const moderator = role === 'coach';
      let jwt: string | null = null;
      if (secret) {
        jwt = await new SignJWT({
          room: roomName,
          moderator,
          context: {
            user: { name: displayName, moderator, affiliation: moderator ? 'owner' : 'member' },
          },
        })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setIssuer(options.appId!)
          .setAudience(options.audience)
          .setSubject(host)
          .setIssuedAt(Math.floor(now.getTime() / 1000))
          .setNotBefore(Math.floor(window.from.epochMilliseconds / 1000))
          .setExpirationTime(Math.ceil(window.until.epochMilliseconds / 1000))
          .sign(secret);
      }
      return { kind: 'room', domain: options.domain, scriptUrl, roomName, jwt, moderator };
    },
  };
}

/** The link stored with the appointment, for both sides (until a provider integration lands). */
export function createExternalLinkAdapter(): VideoAdapter {
  return {
    async access({ appointment }) {
      return { kind: 'external', url: appointment.externalMeetingUrl };
    },
  };
}

export type VideoAdapters = Record<MeetingType, VideoAdapter>;

export function createVideoAdapters(config: {
  JITSI_DOMAIN: string;
  JITSI_SCRIPT_URL?: string | undefined;
  JITSI_APP_ID?: string | undefined;
  JITSI_APP_SECRET?: string | undefined;
  JITSI_JWT_AUDIENCE: string;
}): VideoAdapters {
  const external = createExternalLinkAdapter();
  return {
    jitsi: createJitsiAdapter({
      domain: config.JITSI_DOMAIN,
      scriptUrl: config.JITSI_SCRIPT_URL,
      appId: config.JITSI_APP_ID,
      appSecret: config.JITSI_APP_SECRET,
      audience: config.JITSI_JWT_AUDIENCE,
    }),
    xodosign: external,
    arztkonsultation: external,
  };
}

/** The origins the web app must be allowed to load the Jitsi script from and frame. */
export function jitsiOrigins(config: {
  JITSI_DOMAIN: string;
  JITSI_SCRIPT_URL?: string | undefined;
}) {
  const script = new URL(
    config.JITSI_SCRIPT_URL ?? `https://${config.JITSI_DOMAIN}/external_api.js`,
  );
  return {
    script: script.origin,
    frames: [...new Set([`https://${config.JITSI_DOMAIN}`, script.origin])],
  };
}
