/** Contract paging: 1-based `page`, `limit` rows; the contract bounds both. */
export function pageWindow(page = 1, limit = 10) {
  return { limit, offset: (page - 1) * limit };
}
