/** What a machine keeps of a failed call: the problem's stable `code` (and HTTP status). */
export interface MachineError {
  code: string;
  status?: number;
}

/** ApiError and NetworkError carry `code` (and `status`); anything else is `unknown_error`. */
export function machineErrorOf(error: unknown): MachineError {
  const e = error as { code?: unknown; status?: unknown } | undefined;
  return {
    code: typeof e?.code === 'string' ? e.code : 'unknown_error',
    ...(typeof e?.status === 'number' ? { status: e.status } : {}),
  };
}

/** Just the stable `code` of a failed call (`unknown_error` when it has none). */
export const errorCodeOf = (error: unknown): string => machineErrorOf(error).code;

/**
 * The default of an actor the app (or a test) must supply with `.provide()`: machines name
 * their side effects but never perform them themselves.
 */
export const notProvided = (machine: string, actor: string) => () => {
  throw new Error(`${machine} machine: provide the "${actor}" actor`);
};
