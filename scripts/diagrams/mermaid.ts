// Mermaid state diagrams (stateDiagram-v2) drawn from a machine definition. Small machines are
// one diagram; a machine too big for a default Mermaid renderer is drawn as an overview of its
// groups of states plus one diagram per group (see groups.ts).
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { eventLabel, guardLabel } from './labels';

/** Mermaid's default limits (`maxTextSize`, `maxEdges`): above them a renderer shows an error. */
export const MERMAID_LIMITS = { maxTextSize: 50_000, maxEdges: 500 } as const;

export interface Edge {
  /** null: a transition of the machine itself, taken from any state. */
  from: AnyStateNode | null;
  /** The target; for a transition without one (it stays), the source. */
  to: AnyStateNode | null;
  event: string;
  label: string;
}

export const mermaidId = (node: AnyStateNode | null) =>
  !node ? 'any_state' : node.path.join('__').replace(/[^A-Za-z0-9_]/g, '_');

const childrenOf = (node: AnyStateNode) => Object.values(node.states) as AnyStateNode[];

export function allNodes(node: AnyStateNode): AnyStateNode[] {
  return childrenOf(node).flatMap((child) => [child, ...allNodes(child)]);
}

/** Every transition of the machine, those without a target (it stays) included. */
export function machineEdges(machine: AnyStateMachine): Edge[] {
  const edges: Edge[] = [];
  for (const node of [machine.root, ...allNodes(machine.root)]) {
    const source = node.path.length === 0 ? null : node;
    const definitions = [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
    for (const t of definitions) {
      const event = eventLabel(String(t.eventType));
      const label = `${event}${guardLabel(t.guard as never)}`;
      const targets = (t.target ?? []) as AnyStateNode[];
      if (targets.length === 0) edges.push({ from: source, to: source, event, label });
      for (const target of targets) edges.push({ from: source, to: target, event, label });
    }
  }
  return edges;
}

const stateLabel = (node: AnyStateNode) => {
  const tags = [...(node.tags ?? [])];
  return (
    node.key +
    (node.type === 'final' ? ' (final)' : '') +
    (tags.length ? ` (${tags.join(', ')})` : '')
  );
};

/** The declarations of some states of a parent, their children nested inside them. */
function declare(parent: AnyStateNode, indent: string, only?: Set<AnyStateNode>): string[] {
  const lines: string[] = [];
  const children = childrenOf(parent).filter((c) => !only || only.has(c));
  const initial = (parent.initial?.target as AnyStateNode[] | undefined)?.[0];
  if (initial && children.includes(initial)) lines.push(`${indent}[*] --> ${mermaidId(initial)}`);
  for (const child of children) {
    const id = mermaidId(child);
    lines.push(`${indent}state "${stateLabel(child)}" as ${id}`);
    if (childrenOf(child).length > 0) {
      lines.push(`${indent}state ${id} {`, ...declare(child, `${indent}  `), `${indent}}`);
    }
    if (child.type === 'final') lines.push(`${indent}${id} --> [*]`);
  }
  return lines;
}

const line = (from: string, to: string, label: string) => `  ${from} --> ${to}: ${label}`;
const unique = (lines: string[]) => [...new Set(lines)];

function withAnyState(lines: string[], edges: string[]): string {
  const any = edges.some((e) => /^ {2}any_state /.test(e) || / any_state:/.test(e));
  return [...lines, ...(any ? ['  state "(any state)" as any_state'] : []), ...edges].join('\n');
}

/** The whole machine as one stateDiagram-v2 body. */
export function toMermaid(machine: AnyStateMachine): string {
  const edges = unique(
    machineEdges(machine).map((e) => line(mermaidId(e.from), mermaidId(e.to), e.label)),
  );
  return withAnyState(['stateDiagram-v2', ...declare(machine.root, '  ')], edges);
}

/** Groups of top-level states, by title; states no group names fall into the last one. */
export type Grouping = Array<{ title: string; states: readonly string[] }>;

const topOf = (node: AnyStateNode | null) => (node ? node.path[0]! : null);
const slug = (title: string) => title.replace(/[^A-Za-z0-9]+/g, '_').toLowerCase();

function groupOf(grouping: Grouping, machine: AnyStateMachine) {
  const byState = new Map<string, string>();
  for (const group of grouping) for (const s of group.states) byState.set(s, group.title);
  const rest = grouping.at(-1)!.title;
  return (node: AnyStateNode | null) => {
    const top = topOf(node);
    if (top === null) return null;
    if (!(top in machine.root.states)) throw new Error(`no state ${top} in ${machine.id}`);
    return byState.get(top) ?? rest;
  };
}

/** One node per group, the events between groups on the edges. */
export function overviewMermaid(machine: AnyStateMachine, grouping: Grouping): string {
  const group = groupOf(grouping, machine);
  const tops = childrenOf(machine.root);
  const lines = ['stateDiagram-v2'];
  const initial = (machine.root.initial?.target as AnyStateNode[] | undefined)?.[0];
  if (initial) lines.push(`  [*] --> g_${slug(group(initial)!)}`);
  for (const { title } of grouping) {
    const count = tops.filter((t) => group(t) === title).length;
    if (count > 0) lines.push(`  state "${title} (${count})" as g_${slug(title)}`);
  }
  const between = new Map<string, Set<string>>();
  for (const e of machineEdges(machine)) {
    const from = e.from ? `g_${slug(group(e.from)!)}` : 'any_state';
    const to = e.to ? `g_${slug(group(e.to)!)}` : 'any_state';
    if (from === to) continue;
    const key = `${from} ${to}`;
    between.set(key, (between.get(key) ?? new Set()).add(e.event));
  }
  const edges = [...between].map(([key, events]) => {
    const [from, to] = key.split(' ') as [string, string];
    const names = [...events];
    const label =
      names.slice(0, 4).join(', ') + (names.length > 4 ? ` (+${names.length - 4})` : '');
    return line(from, to, label);
  });
  return withAnyState(lines, edges);
}

/** One group's states in full; edges to and from other groups end at a node naming the group. */
export function groupMermaid(machine: AnyStateMachine, grouping: Grouping, title: string): string {
  const group = groupOf(grouping, machine);
  const members = new Set(childrenOf(machine.root).filter((t) => group(t) === title));
  const lines = ['stateDiagram-v2', ...declare(machine.root, '  ', members)];
  const outside = new Set<string>();
  const edges: string[] = [];
  const other = (name: string, direction: 'to' | 'from') => {
    const id = `${direction}_${slug(name)}`;
    if (!outside.has(id)) {
      outside.add(id);
      lines.push(`  state "${direction === 'to' ? '→' : '←'} ${name}" as ${id}`);
    }
    return id;
  };
  for (const e of machineEdges(machine)) {
    const fromHere = e.from !== null && group(e.from) === title;
    const toHere = e.to !== null && group(e.to) === title;
    if (fromHere && toHere) edges.push(line(mermaidId(e.from), mermaidId(e.to), e.label));
    else if (fromHere)
      edges.push(line(mermaidId(e.from), other(group(e.to) ?? 'any state', 'to'), e.event));
    else if (toHere)
      edges.push(
        line(e.from ? other(group(e.from)!, 'from') : 'any_state', mermaidId(e.to), e.label),
      );
  }
  return withAnyState(lines, unique(edges));
}

/** How big a diagram body is, against Mermaid's defaults. */
export function diagramSize(body: string) {
  return {
    textSize: body.length,
    edges: body.split('\n').filter((l) => l.includes(' --> ')).length,
  };
}

export const fitsMermaid = (body: string) => {
  const size = diagramSize(body);
  return size.textSize <= MERMAID_LIMITS.maxTextSize && size.edges <= MERMAID_LIMITS.maxEdges;
};
