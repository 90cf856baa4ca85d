import { useMemo, useState } from 'react';
import {
  Box,
  Button,
  IconButton,
  Paper,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import type { ScheduleView } from '@atendi/shared';
import { stripWhatsappFormat } from '../../lib/whatsapp-format';

type CalendarView = 'month' | 'week';

const DAYS_IN_WEEK = 7;
const MONTH_WEEKS = 6;

const pad = (value: number) => String(value).padStart(2, '0');
const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
const addDays = (date: Date, days: number) =>
  new Date(date.getFullYear(), date.getMonth(), date.getDate() + days);
const startOfWeek = (date: Date) => addDays(date, -date.getDay());

// The days the grid shows: six whole weeks around the month, or the week of the anchor date.
const visibleDays = (anchor: Date, view: CalendarView) => {
  const first =
    view === 'month'
      ? startOfWeek(new Date(anchor.getFullYear(), anchor.getMonth(), 1))
      : startOfWeek(anchor);
  const total = view === 'month' ? DAYS_IN_WEEK * MONTH_WEEKS : DAYS_IN_WEEK;
  return Array.from({ length: total }, (_, index) => addDays(first, index));
};

const moveAnchor = (anchor: Date, view: CalendarView, step: number) =>
  view === 'month'
    ? new Date(anchor.getFullYear(), anchor.getMonth() + step, 1)
    : addDays(anchor, step * DAYS_IN_WEEK);

export const contactLabel = (schedule: ScheduleView) =>
  schedule.contact?.name || schedule.contact?.number || `#${schedule.contactId}`;

const timeOf = (value: string) => {
  const date = new Date(value);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

const EventItem = ({
  schedule,
  onEdit,
  onDelete,
}: {
  schedule: ScheduleView;
  onEdit: (schedule: ScheduleView) => void;
  onDelete: (schedule: ScheduleView) => void;
}) => {
  const { t } = useTranslation();
  const name = contactLabel(schedule);
  return (
    <Box
      data-testid="schedule-event"
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 0.25,
        px: 0.5,
        borderRadius: 1,
        bgcolor: schedule.status === 'ERRO' ? 'error.light' : 'primary.light',
        color: schedule.status === 'ERRO' ? 'error.contrastText' : 'primary.contrastText',
        opacity: schedule.status === 'ENVIADA' ? 0.6 : 1,
      }}
    >
      <Box
        component="button"
        type="button"
        onClick={() => onEdit(schedule)}
        title={stripWhatsappFormat(schedule.body)}
        sx={{
          all: 'unset',
          cursor: 'pointer',
          flexGrow: 1,
          minWidth: 0,
          fontSize: 12,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
      >
        {timeOf(schedule.sendAt)} {name}
      </Box>
      <Tooltip title={t('schedules.edit')}>
        <IconButton
          size="small"
          color="inherit"
          sx={{ p: 0.25 }}
          aria-label={t('schedules.editNamed', { name })}
          onClick={() => onEdit(schedule)}
        >
          <EditIcon sx={{ fontSize: 14 }} />
        </IconButton>
      </Tooltip>
      <Tooltip title={t('schedules.remove')}>
        <IconButton
          size="small"
          color="inherit"
          sx={{ p: 0.25 }}
          aria-label={t('schedules.removeNamed', { name })}
          onClick={() => onDelete(schedule)}
        >
          <DeleteIcon sx={{ fontSize: 14 }} />
        </IconButton>
      </Tooltip>
    </Box>
  );
};

// "noviembre de 2026" reads "Noviembre de 2026": only the first letter, as a sentence starts (CSS
// capitalize would also raise "De").
const monthTitle = (date: Date, language: string) => {
  const text = new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric' }).format(date);
  return text.charAt(0).toLocaleUpperCase(language) + text.slice(1);
};

// SPEC §2 Schedules: a month or week calendar with each schedule at its send time, titled with the
// contact's name.
export const SchedulesCalendar = ({
  schedules,
  onEdit,
  onDelete,
  initialDate = new Date(),
}: {
  schedules: ScheduleView[];
  onEdit: (schedule: ScheduleView) => void;
  onDelete: (schedule: ScheduleView) => void;
  initialDate?: Date;
}) => {
  const { t, i18n } = useTranslation();
  const theme = useTheme();
  // A phone's day is ~50 px wide: too narrow for a name. There each day shows how many are due, and
  // the chosen day's schedules are listed below the grid, named in full.
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [view, setView] = useState<CalendarView>('month');
  const [anchor, setAnchor] = useState(initialDate);
  const [chosenDay, setChosenDay] = useState(() => dayKey(initialDate));
  const days = useMemo(() => visibleDays(anchor, view), [anchor, view]);
  const today = dayKey(new Date());

  const byDay = useMemo(() => {
    const map = new Map<string, ScheduleView[]>();
    const sorted = [...schedules].sort(
      (a, b) => new Date(a.sendAt).getTime() - new Date(b.sendAt).getTime() || a.id - b.id,
    );
    for (const schedule of sorted) {
      const key = dayKey(new Date(schedule.sendAt));
      map.set(key, [...(map.get(key) ?? []), schedule]);
    }
    return map;
  }, [schedules]);

  const language = i18n.resolvedLanguage ?? 'es';
  const weekdayFormat = new Intl.DateTimeFormat(language, { weekday: 'short' });
  const label =
    view === 'month'
      ? monthTitle(anchor, language)
      : `${days[0].toLocaleDateString(language)} – ${days[days.length - 1].toLocaleDateString(language)}`;

  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="schedules-calendar">
      <Stack
        direction="row"
        spacing={1}
        useFlexGap
        sx={{
          alignItems: 'center',
          flexWrap: 'wrap',
          mb: 1.5,
        }}
      >
        <Button
          size="small"
          variant="outlined"
          onClick={() => {
            setAnchor(new Date());
            setChosenDay(today);
          }}
        >
          {t('schedules.calendar.today')}
        </Button>
        <IconButton
          size="small"
          aria-label={t('schedules.calendar.previous')}
          onClick={() => setAnchor((current) => moveAnchor(current, view, -1))}
        >
          <ChevronLeftIcon />
        </IconButton>
        <IconButton
          size="small"
          aria-label={t('schedules.calendar.next')}
          onClick={() => setAnchor((current) => moveAnchor(current, view, 1))}
        >
          <ChevronRightIcon />
        </IconButton>
        <Typography variant="subtitle1" component="h2" sx={{ flexGrow: 1 }}>
          {label}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={view}
          onChange={(_event, next: CalendarView | null) => next && setView(next)}
        >
          <ToggleButton value="month">{t('schedules.calendar.month')}</ToggleButton>
          <ToggleButton value="week">{t('schedules.calendar.week')}</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      <Box
        role="grid"
        aria-label={label}
        sx={{ display: 'grid', gridTemplateColumns: 'repeat(7, minmax(0, 1fr))', gap: '1px' }}
      >
        {days.slice(0, DAYS_IN_WEEK).map((day) => (
          <Typography
            key={`head-${day.getDay()}`}
            variant="caption"
            sx={{ textAlign: 'center', fontWeight: 600, textTransform: 'capitalize' }}
          >
            {weekdayFormat.format(day)}
          </Typography>
        ))}
        {days.map((day) => {
          const key = dayKey(day);
          const events = byDay.get(key) ?? [];
          const isOtherMonth = view === 'month' && day.getMonth() !== anchor.getMonth();
          if (isPhone)
            return (
              <Box
                key={key}
                role="gridcell"
                component="button"
                type="button"
                aria-label={
                  events.length
                    ? t('schedules.calendar.dayWithCount', {
                        date: day.toLocaleDateString(language),
                        count: events.length,
                      })
                    : day.toLocaleDateString(language)
                }
                aria-pressed={key === chosenDay}
                onClick={() => setChosenDay(key)}
                sx={{
                  all: 'unset',
                  cursor: 'pointer',
                  minHeight: 48,
                  border: 1,
                  borderColor: key === chosenDay ? 'primary.main' : 'divider',
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  py: 0.5,
                  bgcolor: key === today ? 'action.selected' : undefined,
                  opacity: isOtherMonth ? 0.55 : 1,
                }}
              >
                <Typography variant="caption">{day.getDate()}</Typography>
                {events.length > 0 && (
                  <Box
                    component="span"
                    aria-hidden
                    sx={{
                      minWidth: 18,
                      px: 0.5,
                      borderRadius: 9,
                      fontSize: 11,
                      textAlign: 'center',
                      bgcolor: 'primary.main',
                      color: 'primary.contrastText',
                    }}
                  >
                    {events.length}
                  </Box>
                )}
              </Box>
            );
          return (
            <Box
              key={key}
              role="gridcell"
              aria-label={day.toLocaleDateString(language)}
              sx={{
                minHeight: view === 'month' ? 96 : 320,
                border: 1,
                borderColor: 'divider',
                p: 0.5,
                display: 'flex',
                flexDirection: 'column',
                gap: 0.5,
                bgcolor: key === today ? 'action.selected' : undefined,
                opacity: isOtherMonth ? 0.55 : 1,
              }}
            >
              <Typography variant="caption" sx={{ alignSelf: 'flex-end' }}>
                {day.getDate()}
              </Typography>
              {events.map((schedule) => (
                <EventItem
                  key={schedule.id}
                  schedule={schedule}
                  onEdit={onEdit}
                  onDelete={onDelete}
                />
              ))}
            </Box>
          );
        })}
      </Box>
      {isPhone && (
        <DayAgenda
          title={days
            .find((day) => dayKey(day) === chosenDay)
            ?.toLocaleDateString(language, { weekday: 'long', day: 'numeric', month: 'long' })}
          schedules={byDay.get(chosenDay) ?? []}
          onEdit={onEdit}
          onDelete={onDelete}
        />
      )}
    </Paper>
  );
};

// The chosen day's schedules on a phone, each with its time, the contact's whole name and actions.
const DayAgenda = ({
  title,
  schedules,
  onEdit,
  onDelete,
}: {
  title: string | undefined;
  schedules: ScheduleView[];
  onEdit: (schedule: ScheduleView) => void;
  onDelete: (schedule: ScheduleView) => void;
}) => {
  const { t } = useTranslation();
  return (
    <Stack component="section" aria-label={title} spacing={0.75} sx={{ mt: 1.5 }}>
      {title && (
        <Typography
          variant="subtitle2"
          component="h3"
          sx={{ '&::first-letter': { textTransform: 'uppercase' } }}
        >
          {title}
        </Typography>
      )}
      {schedules.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('schedules.calendar.noneThisDay')}
        </Typography>
      ) : (
        schedules.map((schedule) => (
          <EventItem key={schedule.id} schedule={schedule} onEdit={onEdit} onDelete={onDelete} />
        ))
      )}
    </Stack>
  );
};
