import type { ReactNode } from 'react';
import {
  Avatar,
  Box,
  Paper,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import ForumIcon from '@mui/icons-material/Forum';
import { useTranslation } from 'react-i18next';
import { languages, type Language } from '@atendi/shared';
import { changeLanguage } from '../../i18n/i18n';

export const AuthLayout = ({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) => {
  const { t, i18n } = useTranslation();
  return (
    <Box
      sx={{
        minHeight: '100vh',
        display: 'grid',
        placeItems: 'center',
        // Without this the column grows to the widest field's content and the card overflows phones.
        gridTemplateColumns: 'minmax(0, 1fr)',
        p: 2,
        background: (theme) =>
          theme.palette.mode === 'light'
            ? 'linear-gradient(135deg, #e0f2f1 0%, #f4f6f8 60%)'
            : 'linear-gradient(135deg, #0d2a28 0%, #0f1418 60%)',
      }}
    >
      <Paper elevation={3} sx={{ width: '100%', maxWidth: 440, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={3}>
          <Stack
            direction="row"
            sx={{
              alignItems: 'center',
              justifyContent: 'space-between',
            }}
          >
            <Stack
              direction="row"
              spacing={1.5}
              sx={{
                alignItems: 'center',
              }}
            >
              <Avatar sx={{ bgcolor: 'primary.main' }}>
                <ForumIcon />
              </Avatar>
              <Typography variant="h6" component="p">
                {t('app.name')}
              </Typography>
            </Stack>
            <ToggleButtonGroup
              size="small"
              exclusive
              value={i18n.resolvedLanguage}
              aria-label={t('account.language')}
              onChange={(_event, value: Language | null) => {
                if (value) void changeLanguage(value);
              }}
            >
              {languages.map((language) => (
                <ToggleButton
                  key={language}
                  value={language}
                  aria-label={t(`languages.${language}`)}
                >
                  {language.toUpperCase()}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>
          <Box>
            <Typography variant="h5" component="h1">
              {title}
            </Typography>
            {subtitle && (
              <Typography
                sx={{
                  color: 'text.secondary',
                  mt: 0.5,
                }}
              >
                {subtitle}
              </Typography>
            )}
          </Box>
          {children}
        </Stack>
      </Paper>
    </Box>
  );
};
