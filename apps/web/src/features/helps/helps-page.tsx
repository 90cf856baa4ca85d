import { useState, type SyntheticEvent } from 'react';
import {
  Box,
  Card,
  CardActionArea,
  CardContent,
  CardMedia,
  Grid,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import PlayCircleIcon from '@mui/icons-material/PlayCircleOutlined';
import { useTranslation } from 'react-i18next';
import { LoadingBox } from '../../components/loading-box';
import { thumbnailUrl, useHelpVideos, type HelpVideo } from '../../lib/help-videos';
import { HelpVideoDialog } from './help-video-dialog';

const hideBrokenImage = (event: SyntheticEvent<HTMLImageElement>) => {
  event.currentTarget.style.visibility = 'hidden';
};

const HelpCard = ({ help, onOpen }: { help: HelpVideo; onOpen: () => void }) => (
  <Card variant="outlined" sx={{ height: '100%' }}>
    <CardActionArea onClick={onOpen} sx={{ height: '100%', alignItems: 'stretch' }}>
      <Box sx={{ position: 'relative', aspectRatio: '16 / 9', bgcolor: 'action.hover' }}>
        <CardMedia
          component="img"
          image={thumbnailUrl(help.video)}
          alt=""
          loading="lazy"
          // Without a thumbnail (offline, unknown code) the plain frame and play icon remain.
          onError={hideBrokenImage}
          sx={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }}
        />
        <PlayCircleIcon
          sx={{
            position: 'absolute',
            inset: 0,
            m: 'auto',
            fontSize: 56,
            color: 'common.white',
            filter: 'drop-shadow(0 1px 4px rgba(0,0,0,.6))',
          }}
        />
      </Box>
      <CardContent>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }} gutterBottom>
          {help.title}
        </Typography>
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
            display: '-webkit-box',
            WebkitLineClamp: 3,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
          }}
        >
          {help.description}
        </Typography>
      </CardContent>
    </CardActionArea>
  </Card>
);

export const HelpsPage = () => {
  const { t } = useTranslation();
  const helps = useHelpVideos();
  // The chosen video stays set while the dialog fades out; closing only stops the player.
  const [playing, setPlaying] = useState<HelpVideo | null>(null);
  const [isOpen, setOpen] = useState(false);
  const list = helps.data ?? [];

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {helps.isSuccess ? t('helps.title', { count: list.length }) : t('menu.helps')}
      </Typography>
      {helps.isPending && <LoadingBox />}
      {helps.isSuccess && list.length === 0 && (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Typography
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('helps.empty')}
          </Typography>
        </Paper>
      )}
      <Grid container spacing={2}>
        {list.map((help) => (
          <Grid key={help.id} size={{ xs: 12, sm: 6, md: 4, xl: 3 }}>
            <HelpCard
              help={help}
              onOpen={() => {
                setPlaying(help);
                setOpen(true);
              }}
            />
          </Grid>
        ))}
      </Grid>
      <HelpVideoDialog open={isOpen} help={playing} onClose={() => setOpen(false)} />
    </Stack>
  );
};
