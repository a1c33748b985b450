/**
 * The specification's constants and limits: the preset "open clients" list, newest first, 10 per
 * page; the menu links it too.
 */
export const OPEN_CLIENTS_HREF = '/clients?sortBy=createdAt&sortOrder=desc&limit=10';
