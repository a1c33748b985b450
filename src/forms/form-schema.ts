import type { z } from 'zod';

/** What a staff form's inputs hold, and the zod schema that turns it into a request body. */
export type FormValue = string | boolean;
export type FormValues = Readonly<Record<string, FormValue>>;
/** Field → error code. */
export type FieldErrors = Readonly<Record<string, string>>;
/** Parses form values into a request body. */
export type FormSchema = z.ZodType<Record<string, unknown>, FormValues>;
