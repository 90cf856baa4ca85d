import { needsAttention } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useConnections } from '../../api/queries/connections';

// SPEC §9: the badge check runs 2 s after the list changes.
const BADGE_CHECK_DELAY_MS = 2000;

// SPEC §2 App shell: the drawer's connections item shows '!' while any session needs attention.
// Returns the text that explains the badge, or null when there is nothing to flag.
export const useConnectionsBadge = (enabled: boolean): string | null => {
  const { t } = useTranslation();
  const { data } = useConnections({ enabled });
  const checked = useDebouncedValue(data, BADGE_CHECK_DELAY_MS);
  const isFlagged =
    enabled && (checked ?? []).some((connection) => needsAttention(connection.status));
  return isFlagged ? t('connections.badge') : null;
};
