import { useState } from 'react';
import {
  Badge,
  Box,
  Button,
  CircularProgress,
  Divider,
  IconButton,
  List,
  ListItemButton,
  ListItemText,
  Popover,
  Stack,
  Tooltip,
  Typography,
} from '@mui/material';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../api/session';
import { formatDate } from '../../lib/dates';
import { useInfiniteScroll } from '../../lib/use-infinite-scroll';
import { AnnouncementViewer } from './announcement-viewer';
import {
  recordsOf,
  usePopoverAnnouncements,
  usePopoverLiveUpdates,
  type Announcement,
} from './announcements.api';
import { PriorityDot } from './priority';

const PopoverBody = ({
  query,
  records,
  onOpen,
}: {
  query: ReturnType<typeof usePopoverAnnouncements>;
  records: Announcement[];
  onOpen: (announcement: Announcement) => void;
}) => {
  const { t } = useTranslation();
  const scroll = useInfiniteScroll({
    hasNextPage: query.hasNextPage,
    isFetchingNextPage: query.isFetchingNextPage,
    fetchNextPage: query.fetchNextPage,
    loadedCount: records.length,
  });

  if (query.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
        <CircularProgress size={28} aria-label={t('app.loading')} />
      </Box>
    );
  }
  if (query.isError && records.length === 0) {
    return (
      <Stack
        spacing={1}
        sx={{
          alignItems: 'flex-start',
          p: 2,
        }}
      >
        <Typography variant="body2" color="error">
          {t('announcements.popover.loadError')}
        </Typography>
        <Button size="small" onClick={() => void query.refetch()}>
          {t('announcements.popover.retry')}
        </Button>
      </Stack>
    );
  }
  if (records.length === 0) {
    return (
      <Typography
        variant="body2"
        sx={{
          color: 'text.secondary',
          p: 2,
        }}
      >
        {t('announcements.popover.empty')}
      </Typography>
    );
  }
  return (
    <List
      dense
      ref={scroll.ref}
      onScroll={scroll.onScroll}
      data-testid="announcements-popover-list"
      sx={{ maxHeight: 400, overflowY: 'auto', py: 0.5 }}
    >
      {records.map((announcement) => (
        <ListItemButton
          key={announcement.id}
          onClick={() => onOpen(announcement)}
          sx={{ gap: 1.5, mx: 0.5 }}
        >
          <PriorityDot priority={announcement.priority} />
          <ListItemText
            primary={announcement.title}
            secondary={
              announcement.status
                ? formatDate(announcement.createdAt)
                : `${formatDate(announcement.createdAt)} · ${t('announcements.status.inactive')}`
            }
            slotProps={{
              primary: { noWrap: true, sx: { fontWeight: 500 } },
              secondary: { component: 'span' },
            }}
            sx={{ minWidth: 0, opacity: announcement.status ? 1 : 0.6 }}
          />
        </ListItemButton>
      ))}
      {query.isFetchingNextPage && (
        <Box sx={{ display: 'grid', placeItems: 'center', py: 1 }}>
          <CircularProgress size={20} aria-label={t('app.loading')} />
        </Box>
      )}
    </List>
  );
};

// Top-bar popover for every logged user: active announcements, newest first, live.
export const AnnouncementsPopover = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [viewing, setViewing] = useState<Announcement | null>(null);
  const query = usePopoverAnnouncements();
  // Super users manage announcements, so they also see the inactive ones here.
  usePopoverLiveUpdates(user.super);

  const records = recordsOf(query.data);
  const activeCount = records.filter((announcement) => announcement.status).length;
  // Only the loaded pages are counted; "+" says more wait further down the list.
  const badgeText = query.hasNextPage ? `${activeCount}+` : String(activeCount);
  // Show the newest copy of the record being read, in case it changed meanwhile.
  const current = viewing
    ? (records.find((announcement) => announcement.id === viewing.id) ?? viewing)
    : null;

  return (
    <>
      <Tooltip title={t('announcements.popover.title')}>
        <IconButton
          color="inherit"
          aria-label={t('announcements.popover.button', { count: activeCount })}
          data-testid="announcements-button"
          data-count={activeCount}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <Badge
            badgeContent={badgeText}
            invisible={activeCount === 0}
            color="error"
            slotProps={{ badge: { 'data-testid': 'announcements-badge' } as object }}
          >
            <CampaignIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <Popover
        open={Boolean(anchor)}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { 'data-testid': 'announcements-popover' } as object }}
      >
        <Box sx={{ width: { xs: 'calc(100vw - 32px)', sm: 340 }, maxWidth: 360 }}>
          <Typography variant="subtitle2" sx={{ px: 2, pt: 1.5, pb: 1 }}>
            {t('announcements.popover.title')}
          </Typography>
          <Divider />
          <PopoverBody
            query={query}
            records={records}
            onOpen={(announcement) => {
              setAnchor(null);
              setViewing(announcement);
            }}
          />
        </Box>
      </Popover>
      <AnnouncementViewer announcement={current} onClose={() => setViewing(null)} />
    </>
  );
};
