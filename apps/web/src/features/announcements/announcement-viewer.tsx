import { Box, Stack, Typography } from '@mui/material';
import { formatDate } from '../../lib/dates';
import type { Announcement } from './announcements.api';
import { PriorityChip } from './priority';
import { DialogFrame, DialogView } from '../../components/dialog-frame';

// SPEC §2 announcement viewer modal: title, text with its line breaks, and the image if any.
export const AnnouncementViewer = ({
  announcement,
  onClose,
}: {
  announcement: Announcement | null;
  onClose: () => void;
}) => (
  <DialogFrame open={Boolean(announcement)} onClose={onClose}>
    {announcement && (
      <DialogView title={<Box sx={{ overflowWrap: 'anywhere' }}>{announcement.title}</Box>}>
        <Stack spacing={2}>
          <Stack
            direction="row"
            spacing={1}
            sx={{
              alignItems: 'center',
            }}
          >
            <PriorityChip priority={announcement.priority} />
            <Typography
              variant="body2"
              sx={{
                color: 'text.secondary',
              }}
            >
              {formatDate(announcement.createdAt)}
            </Typography>
          </Stack>
          <Typography
            data-testid="announcement-viewer-text"
            sx={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}
          >
            {announcement.text}
          </Typography>
          {announcement.mediaUrl && (
            <Box
              component="img"
              src={announcement.mediaUrl}
              alt={announcement.mediaName ?? announcement.title}
              sx={{
                display: 'block',
                // A column stack would stretch a small image to its full width.
                alignSelf: 'center',
                maxWidth: '100%',
                maxHeight: '60vh',
                borderRadius: 1,
                objectFit: 'contain',
              }}
            />
          )}
        </Stack>
      </DialogView>
    )}
  </DialogFrame>
);
