// In LIKE/ILIKE, `%` and `_` are wildcards and `\` escapes them: a user's search text means them literally.
const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

// The pattern matching any text that contains `text`.
export const containsPattern = (text: string) => `%${escapeLike(text)}%`;
