import { useState, type FormEvent } from 'react';
import { Button, MenuItem, Paper, Stack, TextField } from '@mui/material';
import FilterAltIcon from '@mui/icons-material/FilterAltOutlined';
import { dashboardPeriodDays } from '@atendi/shared';
import { useTranslation } from 'react-i18next';
import { DateField, INVALID_DATE } from '../../components/date-field';
import type { DashboardFilter } from './dashboard-filter';

// SPEC §9: a period in days (or none) and a date range; "Filtrar" applies what the form holds.
// While a period is chosen the dates do not count, so they are disabled (and kept for later).
export const DashboardFilterBar = ({
  initial,
  onApply,
}: {
  initial: DashboardFilter;
  onApply: (filter: DashboardFilter) => void;
}) => {
  const { t } = useTranslation();
  const [filter, setFilter] = useState(initial);
  const hasPeriod = filter.days > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // A date left half-typed does not filter.
    const whole = (date: string) => (date === INVALID_DATE ? '' : date);
    onApply({ ...filter, dateFrom: whole(filter.dateFrom), dateTo: whole(filter.dateTo) });
  };

  return (
    <Paper
      variant="outlined"
      component="form"
      noValidate
      aria-label={t('dashboard.filter.title')}
      onSubmit={submit}
      sx={{ p: 2 }}
    >
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{
          alignItems: { xs: 'stretch', md: 'center' },
        }}
      >
        <TextField
          select
          size="small"
          label={t('dashboard.filter.period')}
          value={filter.days}
          onChange={(event) => setFilter({ ...filter, days: Number(event.target.value) })}
          sx={{ minWidth: { md: 180 } }}
        >
          <MenuItem value={0}>{t('dashboard.filter.none')}</MenuItem>
          {dashboardPeriodDays.map((days) => (
            <MenuItem key={days} value={days}>
              {t('dashboard.filter.lastDays', { count: days })}
            </MenuItem>
          ))}
        </TextField>
        <DateField
          kind="date"
          size="small"
          label={t('dashboard.filter.dateFrom')}
          value={filter.dateFrom}
          disabled={hasPeriod}
          max={filter.dateTo || undefined}
          onChange={(dateFrom) => setFilter({ ...filter, dateFrom })}
        />
        <DateField
          kind="date"
          size="small"
          label={t('dashboard.filter.dateTo')}
          value={filter.dateTo}
          disabled={hasPeriod}
          min={filter.dateFrom || undefined}
          onChange={(dateTo) => setFilter({ ...filter, dateTo })}
        />
        <Button type="submit" variant="contained" startIcon={<FilterAltIcon />}>
          {t('dashboard.filter.apply')}
        </Button>
      </Stack>
    </Paper>
  );
};
