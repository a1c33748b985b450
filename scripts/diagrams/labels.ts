// Labels of the drawn edges: events in words a product owner can follow, and guards by name,
// combined guards (`and`, `or`, `not`, `stateIn`) spelt out instead of an anonymous "[guard]".

/** A readable label for a transition's event. */
export function eventLabel(eventType: string): string {
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return `${done[1]} done`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return `${error[1]} failed`;
  const after = /^xstate\.after\.([^.]+)\./.exec(eventType);
  if (after) return `after ${after[1]}`;
  if (/^xstate\.done\.state\./.test(eventType)) return 'done';
  if (eventType === '') return 'always';
  return eventType;
}

type GuardLike = string | { type?: unknown } | ((...args: never[]) => unknown) | undefined | null;

/** A guard's name; combined guards list the guards they combine. */
export function guardName(guard: GuardLike): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const combined = (guard as { guards?: GuardLike[] }).guards;
    if (Array.isArray(combined)) return `${guard.name}(${combined.map(guardName).join(', ')})`;
    const stateValue = (guard as { stateValue?: unknown }).stateValue;
    if (stateValue !== undefined) return `stateIn(${JSON.stringify(stateValue)})`;
    return guard.name && guard.name !== 'guard' ? guard.name : 'inline check';
  }
  if (typeof guard === 'object' && 'type' in guard) return String(guard.type);
  return 'inline check';
}

export const guardLabel = (guard: GuardLike) => (guard ? ` [${guardName(guard)}]` : '');
