import { useState, type SyntheticEvent } from 'react';
import {
  Box,
  Button,
  IconButton,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadingBox } from '../../../components/loading-box';
import { thumbnailUrl, useHelpVideos } from '../../../lib/help-videos';
import { toastOperationError } from '../shared/admin-errors';
import { HelpFormDialog } from './help-form-dialog';
import { useDeleteHelp, type Help } from './helps.api';

type FormState = { open: boolean; help: Help | null };

export const HelpsTab = () => {
  const { t } = useTranslation();
  const helps = useHelpVideos();
  const remove = useDeleteHelp();
  const [form, setForm] = useState<FormState>({ open: false, help: null });
  const [deleting, setDeleting] = useState<Help | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => toast.success(t('settings.helps.deleted')),
      onError: toastOperationError,
      onSettled: () => setDeleting(null),
    });
  };

  return (
    <Stack spacing={2}>
      <Stack
        direction="row"
        sx={{
          justifyContent: 'flex-end',
        }}
      >
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setForm({ open: true, help: null })}
        >
          {t('settings.helps.add')}
        </Button>
      </Stack>
      <Paper variant="outlined">
        <TableContainer>
          <Table size="small" aria-label={t('settings.tabs.helps')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('settings.helps.title')}</TableCell>
                <TableCell>{t('settings.helps.video')}</TableCell>
                <TableCell>{t('settings.helps.description')}</TableCell>
                <TableCell align="right">{t('settings.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {(helps.data ?? []).map((help) => (
                <TableRow key={help.id}>
                  <TableCell sx={{ fontWeight: 600 }}>{help.title}</TableCell>
                  <TableCell>
                    {help.video ? (
                      <Stack
                        direction="row"
                        spacing={1}
                        sx={{
                          alignItems: 'center',
                        }}
                      >
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
                    )}
                  </TableCell>
                  <TableCell sx={{ maxWidth: 420 }}>
                    <Typography variant="body2" noWrap title={help.description}>
                      {help.description || '—'}
                    </Typography>
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('settings.edit')}>
                      <IconButton
                        size="small"
                        aria-label={`${t('settings.edit')} ${help.title}`}
                        onClick={() => setForm({ open: true, help })}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('settings.delete')}>
                      <IconButton
                        size="small"
                        aria-label={`${t('settings.delete')} ${help.title}`}
                        onClick={() => setDeleting(help)}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {helps.isPending && <LoadingBox />}
          {helps.isSuccess && helps.data.length === 0 && (
            <Typography
              sx={{
                color: 'text.secondary',
                p: 3,
                textAlign: 'center',
              }}
            >
              {t('settings.helps.empty')}
            </Typography>
          )}
        </TableContainer>
      </Paper>
      <HelpFormDialog
        open={form.open}
        help={form.help}
        onClose={() => setForm({ open: false, help: null })}
      />
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('settings.helps.deleteTitle', { name: deleting?.title ?? '' })}
        message={t('settings.helps.deleteText')}
        confirmLabel={t('settings.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Stack>
  );
};
