import { Grid, MenuItem, Paper, TextField } from '@mui/material';
import { settingDefaults, settingOptions, type SettingKey } from '@atendi/shared';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import type { CompanySetting } from '../../api/session';
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
  'superTwoFactor',
] as const satisfies readonly SettingKey[];

// The platform company's userCreation switches public sign-up, and superTwoFactor applies to every
// super user: only super users see them.
const superOnlyOptions: readonly SettingKey[] = ['userCreation', 'superTwoFactor'];

export const SettingsOptionsTab = ({
  settings,
  isSuper,
}: {
  settings: CompanySetting[];
  isSuper: boolean;
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
        {optionKeys
          .filter((key) => isSuper || !superOnlyOptions.includes(key))
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
