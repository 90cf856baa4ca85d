import { describe, expect, it } from 'vitest';
import { startBanner } from './start-banner';

const base = {
  apiUrl: 'http://localhost:8080',
  webUrl: 'http://localhost:3000',
  dataDir: '/srv/atendi/data',
  logLevel: 'info',
};

describe('start banner', () => {
  it('shows where to go, the generated password, where data lives and how to see requests', () => {
    const text = startBanner({
      ...base,
      admin: { email: 'admin@atendi.local', generatedPassword: 'Gen3ratedPass' },
    });
    expect(text).toContain('Web app    http://localhost:3000');
    expect(text).toContain('API        http://localhost:8080');
    expect(text).toContain('API docs   http://localhost:8080/docs');
    expect(text).toContain('Email      admin@atendi.local');
    expect(text).toContain('Password   Gen3ratedPass');
    expect(text).toContain('/srv/atendi/data');
    expect(text).toContain('embedded (/srv/atendi/data/pgdata)');
    expect(text).toContain('LOG_LEVEL=debug');
    // Plain lines, not a JSON log record.
    expect(text.trim().startsWith('{')).toBe(false);
  });

  it('names no password when none was generated, and no web app when it is not served', () => {
    const chosen = startBanner({ ...base, webUrl: undefined, admin: { email: 'a@b.c' } });
    expect(chosen).toContain('a@b.c (password from ADMIN_PASSWORD)');
    expect(chosen).not.toContain('Password   ');
    expect(chosen).not.toContain('Web app');
    const later = startBanner(base);
    expect(later).not.toMatch(/super user/i);
  });

  it('shows the PostgreSQL address without its credentials', () => {
    const text = startBanner({
      ...base,
      databaseUrl: 'postgres://atendi:S3cretDbPass@db.internal:5432/atendi',
    });
    expect(text).toContain('PostgreSQL db.internal:5432/atendi');
    expect(text).not.toContain('S3cretDbPass');
  });

  it('names the bucket files go to, without its credentials, when they are not under DATA_DIR', () => {
    const text = startBanner({
      ...base,
      fileStore: 'S3 bucket atendi at http://127.0.0.1:9000',
    });
    expect(text).toContain('Files      S3 bucket atendi at http://127.0.0.1:9000');
    expect(text).toContain('/srv/atendi/data (secrets, kept mail)');
    expect(startBanner(base)).toContain('/srv/atendi/data (uploads, secrets, kept mail)');
    expect(startBanner(base)).not.toContain('Files      ');
  });
});
