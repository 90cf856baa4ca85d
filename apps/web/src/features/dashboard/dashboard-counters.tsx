import type { ComponentType } from 'react';
import { Box, Card, CardContent, Skeleton, Stack, Typography } from '@mui/material';
import type { SvgIconProps } from '@mui/material';
import AddCommentIcon from '@mui/icons-material/AddCommentOutlined';
import AvTimerIcon from '@mui/icons-material/AvTimerOutlined';
import HourglassEmptyIcon from '@mui/icons-material/HourglassEmptyOutlined';
import HourglassTopIcon from '@mui/icons-material/HourglassTopOutlined';
import ReplyIcon from '@mui/icons-material/ReplyOutlined';
import SupportAgentIcon from '@mui/icons-material/SupportAgentOutlined';
import TaskAltIcon from '@mui/icons-material/TaskAltOutlined';
import TimerIcon from '@mui/icons-material/TimerOutlined';
import type { DashboardCounters as Counters } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { formatCount, formatMinutes } from './dashboard-format';

type CounterKey = keyof Counters;

// The counts first, then the times; each key is the API's field name (and the e2e test id).
const COUNTERS: {
  key: CounterKey;
  kind: 'count' | 'minutes';
  Icon: ComponentType<SvgIconProps>;
}[] = [
  { key: 'supportHappening', kind: 'count', Icon: SupportAgentIcon },
  { key: 'supportPending', kind: 'count', Icon: HourglassEmptyIcon },
  { key: 'supportFinished', kind: 'count', Icon: TaskAltIcon },
  { key: 'supportStarted', kind: 'count', Icon: AddCommentIcon },
  { key: 'avgSupportTime', kind: 'minutes', Icon: TimerIcon },
  { key: 'avgWaitTime', kind: 'minutes', Icon: HourglassTopIcon },
  { key: 'avgFirstResponseTime', kind: 'minutes', Icon: ReplyIcon },
  { key: 'avgResolutionTime', kind: 'minutes', Icon: AvTimerIcon },
];

// SPEC §3 Dashboard counters: one card each, titled, with what the figure measures underneath.
export const DashboardCounters = ({
  counters,
  isUpdating,
}: {
  // undefined while the first answer is loading (or when it failed).
  counters: Counters | undefined;
  isUpdating: boolean;
}) => {
  const { t, i18n } = useTranslation();
  const valueOf = (figures: Counters, key: CounterKey, kind: 'count' | 'minutes') =>
    kind === 'count'
      ? formatCount(figures[key] ?? 0, i18n.language)
      : formatMinutes(figures[key], t, i18n.language);

  return (
    <Box
      sx={{
        display: 'grid',
        gap: 2,
        gridTemplateColumns: {
          xs: 'minmax(0, 1fr)',
          sm: 'repeat(2, minmax(0, 1fr))',
          lg: 'repeat(4, minmax(0, 1fr))',
        },
      }}
    >
      {COUNTERS.map(({ key, kind, Icon }) => {
        const titleId = `dashboard-counter-${key}-title`;
        return (
          <Card
            key={key}
            variant="outlined"
            role="group"
            aria-labelledby={titleId}
            aria-busy={!counters || isUpdating}
          >
            <CardContent sx={{ '&:last-child': { pb: 2 } }}>
              <Stack
                direction="row"
                spacing={1}
                sx={{
                  alignItems: 'flex-start',
                }}
              >
                <Typography
                  id={titleId}
                  variant="body2"
                  sx={{
                    color: 'text.secondary',
                    flexGrow: 1,
                    fontWeight: 500,
                  }}
                >
                  {t(`dashboard.counters.${key}.title`)}
                </Typography>
                <Icon color="primary" fontSize="small" aria-hidden />
              </Stack>
              {counters ? (
                <Typography
                  variant="h5"
                  component="p"
                  data-testid={`dashboard-counter-${key}`}
                  sx={{ my: 0.5, opacity: isUpdating ? 0.5 : 1 }}
                >
                  {valueOf(counters, key, kind)}
                </Typography>
              ) : (
                <Skeleton variant="text" width="40%" sx={{ fontSize: '1.5rem', my: 0.5 }} />
              )}
              <Typography
                variant="caption"
                component="p"
                sx={{
                  color: 'text.secondary',
                }}
              >
                {t(`dashboard.counters.${key}.hint`)}
              </Typography>
            </CardContent>
          </Card>
        );
      })}
    </Box>
  );
};
