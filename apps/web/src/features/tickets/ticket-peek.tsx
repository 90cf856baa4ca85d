import { Box, Button, Dialog, DialogActions, DialogTitle, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atendi/shared';
import { MessageList } from './message-list';

const ignoreReply = () => undefined;

// SPEC §2/§6: admins look into a waiting conversation, read-only, without accepting it.
export const TicketPeekDialog = ({
  ticket,
  onClose,
}: {
  ticket: TicketView | null;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  return (
    <Dialog
      open={ticket !== null}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-labelledby="ticket-peek-title"
    >
      {ticket && (
        <>
          <DialogTitle id="ticket-peek-title" sx={{ pb: 1 }}>
            {ticket.contact.name || ticket.contact.number}
            <Typography
              variant="caption"
              component="p"
              sx={{
                color: 'text.secondary',
              }}
            >
              {t('tickets.peek.readOnly')}
            </Typography>
          </DialogTitle>
          <Box sx={{ height: '60vh', display: 'flex', flexDirection: 'column', minHeight: 0 }}>
            <MessageList ticket={ticket} canReply={false} onReply={ignoreReply} keepsRead={false} />
          </Box>
          <DialogActions>
            <Button onClick={onClose}>{t('tickets.peek.close')}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
};
