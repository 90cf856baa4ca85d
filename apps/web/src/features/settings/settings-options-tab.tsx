import { useMemo } from 'react';
import { Grid, MenuItem, Paper, TextField } from '@mui/material';
import { settingDefaults, settingOptions, type SettingKey } from '@atendi/shared';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { CompanySetting } from '../../api/session';
import { countryName } from '../../lib/phone';
import { useUpdateSetting } from './settings.api';

// SPEC §9 settings options, in the order the settings screen lists them.
const optionKeys = [
  'userRating',
  'scheduleType',
  'CheckMsgIsGroup',
  'call',
  'chatBotType',
  'sendGreetingAccepted',
  'sendMsgTransfTicket',
  'sendGreetingMessageOneQueues',
  'userCreation',
  'initialSideMenu',
  'twoFactor',
  'singleSession',
  'readReceipts',
  'typingToContact',
  'liveInsight',
  'transcribeAudio',
  'aiSummaries',
  'superTwoFactor',
] as const satisfies readonly SettingKey[];

// The platform company's userCreation switches public sign-up, and superTwoFactor applies to every
// super user: only super users see them.
const superOnlyOptions: readonly SettingKey[] = ['userCreation', 'superTwoFactor'];

// Voice notes are written down by the company's AI provider: shown only where the plan has AI.
const aiOptions: readonly SettingKey[] = ['transcribeAudio'];

// The company's country, by name in the app's language: how numbers typed without their country code
// are read.
const CountryField = ({
  value,
  onChange,
}: {
  value: string;
  onChange: (value: string) => void;
}) => {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  const countries = useMemo(() => {
    const collator = new Intl.Collator(language);
    return (settingOptions.country ?? [])
      .filter(Boolean)
      .map((code) => ({ code, name: countryName(code, language) }))
      .sort((a, b) => collator.compare(a.name, b.name));
  }, [language]);
  return (
    <TextField
      select
      fullWidth
      id="setting-country"
      label={t('settings.options.country.label')}
      helperText={t('settings.options.country.help')}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      // "None" is a choice like the countries, shown as one.
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">
        <em>{t('settings.options.country.none')}</em>
      </MenuItem>
      {countries.map(({ code, name }) => (
        <MenuItem key={code} value={code}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
};

export const SettingsOptionsTab = ({
  settings,
  isSuper,
  hasAi,
}: {
  settings: CompanySetting[];
  isSuper: boolean;
  hasAi: boolean;
}) => {
  const { t } = useTranslation();
  const update = useUpdateSetting();
  const valueOf = (key: SettingKey) =>
    settings.find((setting) => setting.key === key)?.value ?? settingDefaults[key];

  const save = (key: SettingKey, value: string) =>
    update.mutate(
      { key, value },
      { onSuccess: () => toast.success(t('settings.options.saved'), { toastId: 'setting-saved' }) },
    );

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, md: 3 } }}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, sm: 6, lg: 4 }}>
          <CountryField value={valueOf('country')} onChange={(value) => save('country', value)} />
        </Grid>
        {optionKeys
          .filter((key) => isSuper || !superOnlyOptions.includes(key))
          .filter((key) => hasAi || !aiOptions.includes(key))
          .map((key) => (
            <Grid key={key} size={{ xs: 12, sm: 6, lg: 4 }}>
              <TextField
                select
                fullWidth
                id={`setting-${key}`}
                label={t(`settings.options.${key}.label`)}
                helperText={t(`settings.options.${key}.help`)}
                value={valueOf(key)}
                onChange={(event) => save(key, event.target.value)}
              >
                {(settingOptions[key] ?? []).map((value) => (
                  <MenuItem key={value} value={value}>
                    {t(`settings.options.${key}.values.${value}`)}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
          ))}
      </Grid>
    </Paper>
  );
};
