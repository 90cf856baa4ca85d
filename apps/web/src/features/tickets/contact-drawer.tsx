import { Box, CircularProgress, Drawer } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { TicketView } from '@atendi/shared';
import { lazyComponent } from '../../lib/lazy-component';
import { thumbSized } from '../../lib/thumb';
import { useContactLiveUpdates } from './contact-drawer.api';

export const DRAWER_WIDTH = 320;

const DrawerSpinner = () => {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', p: 3 }}>
      <CircularProgress size={24} aria-label={t('app.loading')} />
    </Box>
  );
};

const ContactDrawerContent = lazyComponent(
  () => import('./contact-drawer-content').then((module) => module.ContactDrawerContent),
  <DrawerSpinner />,
);

// SPEC §2 Tickets screen: the chat's contact drawer (notes, extra info, edit contact), at the right
// of the conversation where the chat keeps its room beside it, over it elsewhere.
export const ContactDrawer = ({
  ticket,
  open,
  isOver,
  onClose,
}: {
  ticket: TicketView;
  open: boolean;
  isOver: boolean;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  useContactLiveUpdates();
  if (isOver)
    return (
      <Drawer
        anchor="right"
        open={open}
        onClose={onClose}
        // A dialog's layer, above the app bar (which lies above the navigation drawer): its title
        // and close button show.
        sx={{ zIndex: (theme) => theme.zIndex.modal }}
        // On a phone it takes the whole width (a strip of chat beside it would be of no use), its
        // controls thumb-sized.
        slotProps={{
          paper: {
            sx: [{ width: { xs: '100%', sm: DRAWER_WIDTH }, maxWidth: '100%' }, thumbSized],
          },
        }}
      >
        {open && <ContactDrawerContent ticket={ticket} onClose={onClose} />}
      </Drawer>
    );
  if (!open) return null;
  return (
    <Box
      component="aside"
      aria-label={t('tickets.contactDrawer.title')}
      sx={{
        width: DRAWER_WIDTH,
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        minHeight: 0,
      }}
    >
      <ContactDrawerContent ticket={ticket} onClose={onClose} />
    </Box>
  );
};
