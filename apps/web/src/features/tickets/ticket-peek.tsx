import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atendi/shared';
import { MessageList } from './message-list';
import { DialogFrame, DialogView } from '../../components/dialog-frame';

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
    <DialogFrame open={ticket !== null} onClose={onClose}>
      {ticket && (
        <DialogView
          title={
            <>
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
            </>
          }
          // The conversation scrolls itself, in a box as tall as the window allows.
          contentSx={{ p: 0, height: '60vh', display: 'flex', flexDirection: 'column' }}
        >
          <MessageList ticket={ticket} canReply={false} onReply={ignoreReply} keepsRead={false} />
        </DialogView>
      )}
    </DialogFrame>
  );
};
