import { useState } from 'react';
import { Alert, Button, IconButton } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { can } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useConnections } from '../../api/queries/connections';
import { useCurrentSession } from '../../api/session';

// Closed for the browser tab's session, per set of disconnected connections: another one dropping
// makes a new set, and the banner shows again.
const closedKeyOf = (ids: number[]) => `disconnectedBannerClosed:${ids.join(',')}`;

// Storage can throw (private mode, disabled cookies): the banner then only stays closed until reload.
const isClosedInSession = (key: string) => {
  try {
    return window.sessionStorage.getItem(key) !== null;
  } catch {
    return false;
  }
};

const closeInSession = (key: string) => {
  try {
    window.sessionStorage.setItem(key, '1');
  } catch {
    // Ignored, as above.
  }
};

// Issue 39 (number health): over every page but the connections page, tells an admin that a
// connection is disconnected, so customers' messages are not arriving. It reads the connections list
// the drawer's '!' reads (one cache, kept current by live events).
export const DisconnectedBanner = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const { pathname } = useLocation();
  const isAdmin = can(user, 'connections-page:actionButtons');
  const { data } = useConnections({ enabled: isAdmin });
  const [closedNow, setClosedNow] = useState<string | null>(null);

  const disconnected = (data ?? []).filter((connection) => connection.status === 'DISCONNECTED');
  const closedKey = closedKeyOf(
    disconnected.map((connection) => connection.id).sort((a, b) => a - b),
  );
  const isHidden =
    !isAdmin ||
    disconnected.length === 0 ||
    pathname.startsWith('/connections') ||
    closedNow === closedKey ||
    isClosedInSession(closedKey);
  if (isHidden) return null;

  const close = () => {
    closeInSession(closedKey);
    setClosedNow(closedKey);
  };
  return (
    <Alert
      severity="warning"
      data-testid="disconnected-banner"
      action={
        // An Alert with actions shows no close button of its own.
        <>
          <Button color="inherit" size="small" component={RouterLink} to="/connections">
            {t('connections.banner.view')}
          </Button>
          <IconButton
            color="inherit"
            size="small"
            aria-label={t('connections.banner.close')}
            onClick={close}
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </>
      }
      sx={{ mb: 2 }}
    >
      {t('connections.banner.text', {
        count: disconnected.length,
        name: disconnected[0]!.name,
      })}
    </Alert>
  );
};
