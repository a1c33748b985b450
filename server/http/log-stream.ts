import pretty from 'pino-pretty';

/**
 * The readable log of development (`LOG_FORMAT=pretty`): one line per entry — time, level,
 * message and the entry's fields as compact JSON — so a request is two lines, not a dozen.
 * Elsewhere the log is pino's JSON, one object per line, for the log collector.
 */
export function prettyLogStream(
  options: { colorize?: boolean; destination?: NodeJS.WritableStream } = {},
) {
  return pretty({
    colorize: options.colorize ?? Boolean(process.stdout.isTTY),
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
    // `err`/`error` are already loggableError's small objects (problem.ts): inline like the
    // rest, not pino-pretty's multi-line error block.
    errorLikeObjectKeys: [],
    sync: true,
    ...(options.destination ? { destination: options.destination } : {}),
  });
}
