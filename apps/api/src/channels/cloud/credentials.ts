import type { ConnectionRow } from '../driver';
import type { SecretBox } from '../../platform/secrets';

// The Cloud API credentials as the provider needs them; the row keeps them sealed. One sealed
// under another ENCRYPTION_KEY reads as missing: the admin enters it again.
export const withOpenCloudSecrets = <
  T extends Pick<ConnectionRow, 'cloudAccessToken' | 'cloudAppSecret'>,
>(
  secrets: Pick<SecretBox, 'open'>,
  row: T,
): T => {
  const open = (sealed: string | null) => {
    if (!sealed) return null;
    try {
      return secrets.open(sealed);
    } catch {
      return null;
    }
  };
  return {
    ...row,
    cloudAccessToken: open(row.cloudAccessToken),
    cloudAppSecret: open(row.cloudAppSecret),
  };
};
