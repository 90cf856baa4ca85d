import { useState, type SyntheticEvent } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { useTranslation } from 'react-i18next';
import { thumbnailUrl, useHelpVideos } from '../../../lib/help-videos';
import { AdminTable, AdminToolbar, useAdminDelete } from '../shared/admin-table';
import { HelpFormDialog } from './help-form-dialog';
import { useDeleteHelp, type Help } from './helps.api';

type FormState = { open: boolean; help: Help | null };

export const HelpsTab = () => {
  const { t } = useTranslation();
  const helps = useHelpVideos();
  const deleteHelp = useDeleteHelp();
  const [form, setForm] = useState<FormState>({ open: false, help: null });
  const remove = useAdminDelete<Help>({
    remove: {
      mutate: (help, options) => deleteHelp.mutate(help.id, options),
      isPending: deleteHelp.isPending,
    },
    deletedText: t('settings.helps.deleted'),
    title: (help) => t('settings.helps.deleteTitle', { name: help?.title ?? '' }),
    message: t('settings.helps.deleteText'),
  });

  return (
    <Stack spacing={2}>
      <AdminToolbar
        addLabel={t('settings.helps.add')}
        onAdd={() => setForm({ open: true, help: null })}
      />
      <AdminTable
        label={t('settings.tabs.helps')}
        rows={helps.data ?? []}
        nameOf={(help) => help.title}
        isPending={helps.isPending}
        isEmpty={helps.isSuccess && helps.data.length === 0}
        emptyText={t('settings.helps.empty')}
        columns={[
          { label: t('settings.helps.title'), sx: { fontWeight: 600 }, cell: (help) => help.title },
          {
            label: t('settings.helps.video'),
            cell: (help) =>
              help.video ? (
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                  <Box
                    component="img"
                    src={thumbnailUrl(help.video)}
                    alt=""
                    loading="lazy"
                    onError={(event: SyntheticEvent<HTMLImageElement>) => {
                      event.currentTarget.style.visibility = 'hidden';
                    }}
                    sx={{
                      width: 64,
                      height: 36,
                      objectFit: 'cover',
                      borderRadius: 1,
                      bgcolor: 'action.hover',
                    }}
                  />
                  <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                    {help.video}
                  </Typography>
                </Stack>
              ) : (
                '—'
              ),
          },
          {
            label: t('settings.helps.description'),
            sx: { maxWidth: 420 },
            cell: (help) => (
              <Typography variant="body2" noWrap title={help.description}>
                {help.description || '—'}
              </Typography>
            ),
          },
        ]}
        actions={[
          {
            label: t('settings.edit'),
            icon: <EditIcon fontSize="small" />,
            onClick: (help) => setForm({ open: true, help }),
          },
          {
            label: t('settings.delete'),
            icon: <DeleteIcon fontSize="small" />,
            onClick: remove.ask,
          },
        ]}
      />
      <HelpFormDialog
        open={form.open}
        help={form.help}
        onClose={() => setForm({ open: false, help: null })}
      />
      {remove.dialog}
    </Stack>
  );
};
