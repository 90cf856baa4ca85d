import type { ReactNode } from 'react';
import {
  Box,
  Paper,
  Rating,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  type Theme,
} from '@mui/material';
import type { DashboardAttendant } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { RowCard } from '../../components/paged-table';
import { PresenceText } from '../../components/presence-dot';
import { formatCount, formatMinutes, formatRating } from './dashboard-format';

// SPEC §9: attendants are rated 0 to 3 stars; 0 means nobody rated them in the period.
const RATING_MAX = 3;
const SKELETON_ROWS = 3;

const AttendantRating = ({ rating }: { rating: number }) => {
  const { t, i18n } = useTranslation();
  const value = formatRating(rating, i18n.language);
  const label =
    rating > 0
      ? t('dashboard.attendants.ratingLabel', { value, max: RATING_MAX })
      : t('dashboard.attendants.notRated');
  return (
    <Stack
      direction="row"
      spacing={1}
      sx={{
        alignItems: 'center',
      }}
    >
      <Rating
        value={rating}
        max={RATING_MAX}
        precision={0.5}
        readOnly
        size="small"
        getLabelText={() => label}
      />
      {rating > 0 && (
        <Typography
          variant="body2"
          aria-hidden
          sx={{
            color: 'text.secondary',
          }}
        >
          {value}
        </Typography>
      )}
    </Stack>
  );
};

// SPEC §3: each attendant's name, rating, average support time, resolved tickets and presence (live:
// useDashboardView writes each change in).
export const AttendantsTable = ({
  attendants,
  isUpdating,
}: {
  // undefined while the first answer is loading.
  attendants: DashboardAttendant[] | undefined;
  isUpdating: boolean;
}) => {
  const { t, i18n } = useTranslation();
  const columns = ['name', 'rating', 'avgSupportTime', 'tickets', 'status'] as const;
  // Below 600 px each attendant is a card (components/paged-table.tsx RowCard).
  const asCards = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const cells: Record<(typeof columns)[number], (attendant: DashboardAttendant) => ReactNode> = {
    name: (attendant) => attendant.name,
    rating: (attendant) => <AttendantRating rating={attendant.rating} />,
    avgSupportTime: (attendant) => formatMinutes(attendant.avgSupportTime, t, i18n.language),
    tickets: (attendant) => formatCount(attendant.tickets, i18n.language),
    status: (attendant) => <PresenceText presence={attendant.presence} />,
  };
  const cardColumns = columns.map((column) => ({
    header: t(`dashboard.attendants.columns.${column}`),
    cell: cells[column],
  }));

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="dashboard-attendants-title"
      aria-busy={!attendants || isUpdating}
    >
      <Typography
        id="dashboard-attendants-title"
        variant="h6"
        component="h2"
        sx={{ px: 2, pt: 2, pb: 1 }}
      >
        {t('dashboard.attendants.title')}
      </Typography>
      {asCards ? (
        <Box sx={{ px: 2, pb: 2, opacity: isUpdating ? 0.5 : 1 }}>
          {!attendants &&
            Array.from({ length: SKELETON_ROWS }, (_, row) => (
              <Skeleton key={row} variant="rounded" height={96} sx={{ mb: 1.5 }} />
            ))}
          {attendants?.length === 0 && (
            <Typography sx={{ color: 'text.secondary', py: 2, textAlign: 'center' }}>
              {t('dashboard.attendants.empty')}
            </Typography>
          )}
          {attendants && attendants.length > 0 && (
            <Stack
              component="ul"
              aria-labelledby="dashboard-attendants-title"
              spacing={1.5}
              sx={{ m: 0, p: 0 }}
            >
              {attendants.map((attendant) => (
                <RowCard
                  key={attendant.id}
                  row={attendant}
                  columns={cardColumns}
                  testId={{ 'data-testid': `dashboard-attendant-${attendant.id}` }}
                />
              ))}
            </Stack>
          )}
        </Box>
      ) : (
        <TableContainer>
          <Table
            size="small"
            aria-labelledby="dashboard-attendants-title"
            sx={{ opacity: isUpdating ? 0.5 : 1 }}
          >
            <TableHead>
              <TableRow>
                {columns.map((column) => (
                  <TableCell key={column} align={column === 'tickets' ? 'center' : 'left'}>
                    {t(`dashboard.attendants.columns.${column}`)}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {!attendants &&
                Array.from({ length: SKELETON_ROWS }, (_, row) => (
                  <TableRow key={row}>
                    {columns.map((column) => (
                      <TableCell key={column}>
                        <Skeleton variant="text" />
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              {attendants?.length === 0 && (
                <TableRow>
                  <TableCell colSpan={columns.length}>
                    <Typography
                      sx={{
                        color: 'text.secondary',
                        py: 2,
                        textAlign: 'center',
                      }}
                    >
                      {t('dashboard.attendants.empty')}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
              {attendants?.map((attendant) => (
                <TableRow key={attendant.id} data-testid={`dashboard-attendant-${attendant.id}`}>
                  <TableCell component="th" scope="row">
                    {attendant.name}
                  </TableCell>
                  <TableCell>
                    <AttendantRating rating={attendant.rating} />
                  </TableCell>
                  <TableCell>{formatMinutes(attendant.avgSupportTime, t, i18n.language)}</TableCell>
                  <TableCell align="center">
                    {formatCount(attendant.tickets, i18n.language)}
                  </TableCell>
                  <TableCell>
                    <PresenceText presence={attendant.presence} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
};
