// The same server URL pointed at another database.
export const databaseUrl = (url: string, database: string) => {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
};
