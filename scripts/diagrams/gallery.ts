// The gallery: one HTML page a product owner opens in any browser, without tools. Every machine
// is drawn (Mermaid, inlined so the file works on its own, even from an e-mail), grouped by
// area, with a table of its states: what each means and whether the last model-based test run
// reached it and checked it (read from that run's own record in test-results/machines/).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { AnyStateMachine } from 'xstate';
import { AREAS, OTHER_AREA } from './areas';
import { MEANINGS } from './meanings.de';
import { allNodes } from './mermaid';

export interface GalleryMachine {
  name: string;
  source: string;
  machine: AnyStateMachine;
  /** The Markdown sections of its diagram file: headings and fenced Mermaid blocks. */
  sections: string[];
}

export interface StateRecord {
  reached: boolean;
  checked: boolean;
}

export interface RunRecord {
  /** When the newest record of the machine was written. */
  at: string;
  states: Record<string, StateRecord>;
}

/** The model-based tests' records, merged per machine (a state counts if any test did it). */
export function readRecords(dir: string): Map<string, RunRecord> | null {
  if (!existsSync(dir)) return null;
  const records = new Map<string, RunRecord>();
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as RunRecord & {
      machine: string;
    };
    const merged = records.get(data.machine) ?? { at: data.at, states: {} };
    if (data.at > merged.at) merged.at = data.at;
    for (const [id, state] of Object.entries(data.states)) {
      const before = merged.states[id];
      merged.states[id] = {
        reached: state.reached || (before?.reached ?? false),
        checked: state.checked || (before?.checked ?? false),
      };
    }
    records.set(data.machine, merged);
  }
  return records;
}

const escape = (text: string) =>
  text.replace(
    /[&<>"]/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c as '&'],
  );

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString('de-DE', { dateStyle: 'medium', timeStyle: 'short' });

function areaOf(name: string): { area: string; title: string } {
  for (const { area, machines } of AREAS)
    if (machines[name]) return { area, title: machines[name] };
  return { area: OTHER_AREA, title: name };
}

function diagramsHtml(sections: string[]): string {
  const out: string[] = [];
  const text = sections.join('\n');
  const parts = text.split(/```mermaid\n([\s\S]*?)```/);
  for (const [i, part] of parts.entries()) {
    if (i % 2 === 1) out.push(`<pre class="mermaid">${escape(part)}</pre>`);
    else
      for (const heading of part.matchAll(/^## (.+)$/gm))
        out.push(`<h4>${escape(heading[1]!)}</h4>`);
  }
  return out.join('\n');
}

const yesNo = (value: boolean | undefined, none: string) =>
  value === undefined
    ? none
    : value
      ? '<span class="yes">ja</span>'
      : '<span class="no">nein</span>';

function statesHtml(entry: GalleryMachine, record: RunRecord | undefined, noRun: boolean): string {
  const none = noRun ? '?' : '–';
  const rows = allNodes(entry.machine.root).map((node) => {
    const state = record?.states[node.id];
    const meaning = node.description ?? MEANINGS[node.id] ?? '';
    const tags = [...(node.tags ?? [])].join(', ');
    return `<tr><td><code>${escape(node.path.join('.'))}</code></td><td>${escape(meaning) || '<span class="muted">noch nicht beschrieben</span>'}${tags ? ` <span class="tags">${escape(tags)}</span>` : ''}</td><td>${yesNo(state?.reached, none)}</td><td>${yesNo(state?.checked, none)}</td></tr>`;
  });
  return `<table><thead><tr><th>Zustand</th><th>Bedeutung</th><th>im Test erreicht</th><th>im Test geprüft</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function summary(entry: GalleryMachine, record: RunRecord | undefined, noRun: boolean): string {
  const total = allNodes(entry.machine.root).length;
  if (noRun) return `${total} Zustände · kein Testlauf aufgezeichnet`;
  if (!record) return `${total} Zustände · kein modellbasierter Test`;
  const states = Object.values(record.states);
  const reached = states.filter((s) => s.reached).length;
  const checked = states.filter((s) => s.checked).length;
  return `${total} Zustände · ${reached} von ${states.length} Ruhezuständen erreicht, ${checked} geprüft · Testlauf ${dateTime(record.at)}`;
}

export function galleryHtml(
  entries: GalleryMachine[],
  records: Map<string, RunRecord> | null,
  mermaidJs: string,
): string {
  const byArea = new Map<string, Array<GalleryMachine & { title: string }>>();
  for (const entry of entries) {
    const { area, title } = areaOf(entry.name);
    byArea.set(area, [...(byArea.get(area) ?? []), { ...entry, title }]);
  }
  const areas = [...AREAS.map((a) => a.area), OTHER_AREA].filter((a) => byArea.has(a));
  const nav = areas
    .map(
      (area) =>
        `<li>${escape(area)}<ul>${byArea
          .get(area)!
          .map((m) => `<li><a href="#m-${m.name}">${escape(m.title)}</a></li>`)
          .join('')}</ul></li>`,
    )
    .join('');
  const body = areas
    .map(
      (area) =>
        `<h2>${escape(area)}</h2>` +
        byArea
          .get(area)!
          .map((m) => {
            const record = records?.get(m.name);
            return `<section class="machine" id="m-${m.name}" data-machine="${m.name}">
<h3>${escape(m.title)} <small><code>${m.name}</code></small></h3>
<p class="muted">${escape(summary(m, record, records === null))} · Quelle: <code>${escape(m.source)}</code></p>
${diagramsHtml(m.sections)}
<details><summary>Zustände</summary>${statesHtml(m, record, records === null)}</details>
</section>`;
          })
          .join('\n'),
    )
    .join('\n');
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Abläufe der Sprechstunde</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1f2933;background:#f7f8fa}
header{background:#1f4e5f;color:#fff;padding:1.5rem 2rem}
main{display:grid;grid-template-columns:16rem 1fr;gap:2rem;padding:2rem;max-width:100rem;margin:auto}
nav ul{list-style:none;padding-left:0.75rem;margin:0.25rem 0}nav>ul{padding:0}
nav{position:sticky;top:1rem;align-self:start;font-size:0.9rem;max-height:95vh;overflow:auto}
section.machine{background:#fff;border:1px solid #d9dee5;border-radius:8px;padding:1rem 1.5rem;margin:1rem 0;overflow-x:auto}
h2{margin-top:2.5rem;border-bottom:2px solid #1f4e5f}
.muted{color:#5f6b7a}.tags{font-size:0.8rem;color:#5f6b7a}
.yes{color:#1b7f3b;font-weight:600}.no{color:#b42318;font-weight:600}
table{border-collapse:collapse;width:100%;font-size:0.9rem}td,th{border-bottom:1px solid #e4e7ec;padding:0.3rem 0.5rem;text-align:left}
pre.mermaid{background:none}.failed{color:#b42318;white-space:pre-wrap}
@media (max-width:900px){main{grid-template-columns:1fr;padding:1rem}nav{position:static;max-height:none}}
</style></head>
<body><header><h1>Abläufe der Sprechstunde</h1><p>Jeder Ablauf der Anwendung als Zustandsdiagramm, erzeugt mit <code>npm run diagrams</code> aus den Maschinen selbst. „Erreicht“ und „geprüft“ stammen aus dem letzten aufgezeichneten Lauf der modellbasierten Tests (<code>npm run test:unit</code>).</p></header>
<main><nav aria-label="Abläufe"><ul>${nav}</ul></nav><div>${body}</div></main>
<script>${mermaidJs.replace(/<\/script/gi, '<\\/script')}</script>
<script>
(async () => {
  // Drawn one after another, those in view first, so the page reads at once.
  mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
  const queue = [...document.querySelectorAll('pre.mermaid')];
  const seen = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const i = queue.indexOf(e.target);
      if (e.isIntersecting && i > 0) queue.unshift(...queue.splice(i, 1));
    }
  }, { rootMargin: '400px' });
  queue.forEach((pre) => seen.observe(pre));
  await new Promise((resolve) => setTimeout(resolve, 50));
  let n = 0;
  while (queue.length > 0) {
    const pre = queue.shift();
    seen.unobserve(pre);
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      const { svg } = await mermaid.render('diagram-' + n++, pre.textContent);
      pre.innerHTML = svg;
      pre.dataset.rendered = 'true';
    } catch (error) {
      pre.dataset.failed = 'true';
      pre.classList.add('failed');
      pre.textContent = 'Dieses Diagramm ließ sich nicht zeichnen: ' + (error && error.message);
    }
  }
  document.body.dataset.done = 'true';
})();
</script></body></html>
`;
}
