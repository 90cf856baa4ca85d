import { useEffect, useState } from 'react';
import { Box, Button, IconButton, Paper, Stack, Tooltip, Typography } from '@mui/material';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { can } from '@atendi/shared';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../api/session';
import {
  closeGettingStarted,
  isGettingStartedClosed,
  useGettingStartedSteps,
  type StepKey,
} from './getting-started.api';

// Each step and the page where it is done; the simulator's phone lives on the connections page.
const STEPS: { key: StepKey; to: string }[] = [
  { key: 'queue', to: '/queues' },
  { key: 'connection', to: '/connections' },
  { key: 'agent', to: '/users' },
  { key: 'testMessage', to: '/connections' },
];

// What a new company's admin does first, ticked from the company's data, until every step
// is done or the admin closes it (remembered per company on this browser).
export const GettingStartedCard = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  const companyId = user.company.id;
  const [isClosed, setClosed] = useState(() => isGettingStartedClosed(companyId));
  const isShown = can(user, 'dashboard:view') && !isClosed;
  const steps = useGettingStartedSteps(user.id, isShown);
  const doneCount = steps ? STEPS.filter(({ key }) => steps[key]).length : 0;
  const isFinished = doneCount === STEPS.length;

  // Once finished it stays away, and its lists are no longer asked for.
  useEffect(() => {
    if (isFinished) closeGettingStarted(companyId);
  }, [isFinished, companyId]);

  if (!isShown || !steps || isFinished) return null;

  const close = () => {
    closeGettingStarted(companyId);
    setClosed(true);
  };

  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby="getting-started-title"
      sx={{ p: { xs: 2, sm: 2.5 } }}
    >
      <Stack
        direction="row"
        spacing={1}
        sx={{
          alignItems: 'flex-start',
        }}
      >
        <Box sx={{ flexGrow: 1 }}>
          <Typography id="getting-started-title" variant="h6" component="h2">
            {t('dashboard.gettingStarted.title')}
          </Typography>
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('dashboard.gettingStarted.progress', { done: doneCount, total: STEPS.length })}
          </Typography>
        </Box>
        <Tooltip title={t('dashboard.gettingStarted.close')}>
          <IconButton aria-label={t('dashboard.gettingStarted.close')} onClick={close}>
            <CloseIcon />
          </IconButton>
        </Tooltip>
      </Stack>
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1.5 }}>
        {STEPS.map(({ key, to }) => {
          const isDone = steps[key];
          return (
            <Stack
              key={key}
              component="li"
              data-testid={`getting-started-${key}`}
              direction={{ xs: 'column', sm: 'row' }}
              spacing={{ xs: 1, sm: 2 }}
              sx={{
                alignItems: { xs: 'flex-start', sm: 'center' },
                py: 1.25,
                borderTop: 1,
                borderColor: 'divider',
              }}
            >
              <Stack
                direction="row"
                spacing={1.5}
                sx={{
                  alignItems: 'flex-start',
                  flexGrow: 1,
                }}
              >
                {isDone ? (
                  <CheckCircleIcon
                    color="success"
                    titleAccess={t('dashboard.gettingStarted.done')}
                  />
                ) : (
                  <RadioButtonUncheckedIcon
                    color="disabled"
                    titleAccess={t('dashboard.gettingStarted.pending')}
                  />
                )}
                <Box>
                  <Typography
                    sx={{
                      fontWeight: 500,
                      textDecoration: isDone ? 'line-through' : undefined,
                      color: isDone ? 'text.secondary' : undefined,
                    }}
                  >
                    {t(`dashboard.gettingStarted.steps.${key}.title`)}
                  </Typography>
                  <Typography
                    variant="body2"
                    sx={{
                      color: 'text.secondary',
                    }}
                  >
                    {t(`dashboard.gettingStarted.steps.${key}.hint`)}
                  </Typography>
                </Box>
              </Stack>
              <Button
                component={RouterLink}
                to={to}
                size="small"
                variant={isDone ? 'text' : 'outlined'}
                sx={{ flexShrink: 0, ml: { xs: 4.5, sm: 0 } }}
              >
                {t(`dashboard.gettingStarted.steps.${key}.action`)}
              </Button>
            </Stack>
          );
        })}
      </Box>
    </Paper>
  );
};
