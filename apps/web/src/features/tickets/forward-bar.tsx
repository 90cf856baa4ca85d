import { useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MESSAGE_FORWARD_MAX, type TicketView } from '@atendi/shared';
import { lazyDialog } from '../../lib/lazy-component';
import type { ContactChoice } from './new-ticket-dialog';

const ForwardDialog = lazyDialog(() =>
  import('./forward-dialog').then((module) => module.ForwardDialog),
);

// Issue 39: in place of the composer while messages are being chosen to forward. How many are
// checked (at most MESSAGE_FORWARD_MAX), "Cancel", and "Forward to…", which asks for the contact.
export const ForwardBar = ({
  messageIds,
  onCancel,
  onForwarded,
}: {
  messageIds: readonly number[];
  onCancel: () => void;
  onForwarded: (ticket: TicketView, contact: ContactChoice) => void;
}) => {
  const { t } = useTranslation();
  const [isDialogOpen, setIsDialogOpen] = useState(false);
  const count = messageIds.length;
  return (
    <Box
      component="section"
      aria-label={t('tickets.forward.label')}
      sx={{ borderTop: 1, borderColor: 'divider', px: 2, py: 1, flexShrink: 0 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography role="status" variant="body2" sx={{ fontWeight: 500 }}>
            {t('tickets.forward.selected', { count })}
          </Typography>
          {count >= MESSAGE_FORWARD_MAX && (
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {t('tickets.forward.max', { max: MESSAGE_FORWARD_MAX })}
            </Typography>
          )}
        </Box>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
        <Button variant="contained" disabled={count === 0} onClick={() => setIsDialogOpen(true)}>
          {t('tickets.forward.open')}
        </Button>
      </Stack>
      <ForwardDialog
        open={isDialogOpen}
        messageIds={messageIds}
        onClose={() => setIsDialogOpen(false)}
        onForwarded={(ticket, contact) => {
          setIsDialogOpen(false);
          onForwarded(ticket, contact);
        }}
      />
    </Box>
  );
};
