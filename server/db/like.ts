/** A LIKE pattern for a case-insensitive substring match, with the user's wildcards escaped. */
export const likePattern = (text: string) =>
  `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
