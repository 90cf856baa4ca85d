import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import SyncIcon from '@mui/icons-material/Sync';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/http-client';
import { LoadingBox } from '../../components/loading-box';
import {
  TemplatePreview,
  TemplateStatusChip,
  templateSyncErrorText,
} from '../../components/message-template';
import { formatLastUpdate } from './connection-status';
import { useConnections } from '../../api/queries/connections';
import { setTemplates, syncTemplates, useTemplates } from '../../api/queries/templates';
import { DialogFrame, DialogView } from '../../components/dialog-frame';

const TemplatesBody = ({
  connectionId,
  onEditConnection,
}: {
  connectionId: number;
  onEditConnection: () => void;
}) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const connection = useConnections().data?.find((row) => row.id === connectionId);
  const list = useTemplates(connectionId, { silent: true });
  // The refusal is told in place (with the way to fix it), not as a passing toast.
  const sync = useMutation({
    mutationFn: () => syncTemplates(connectionId),
    meta: { silent: true },
    onSuccess: (fresh) => {
      setTemplates(queryClient, connectionId, fresh);
      toast.success(t('connections.templates.synced', { count: fresh.templates.length }));
    },
  });
  const needsAccountId =
    sync.error instanceof ApiError && Boolean(sync.error.fields?.cloudBusinessAccountId);
  const templates = list.data?.templates ?? [];

  return (
    <DialogView title={t('connections.templates.title', { name: connection?.name ?? '' })}>
      <Stack spacing={2}>
        <Typography
          variant="body2"
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('connections.templates.intro')}
        </Typography>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1.5}
          sx={{
            alignItems: { xs: 'flex-start', sm: 'center' },
          }}
        >
          <Typography variant="body2" sx={{ flexGrow: 1 }}>
            {list.data?.syncedAt
              ? t('connections.templates.syncedAt', {
                  date: formatLastUpdate(list.data.syncedAt),
                })
              : list.isSuccess
                ? t('connections.templates.neverSynced')
                : ''}
          </Typography>
          <Button
            variant="contained"
            disabled={sync.isPending}
            startIcon={
              sync.isPending ? <CircularProgress size={16} color="inherit" /> : <SyncIcon />
            }
            onClick={() => sync.mutate()}
          >
            {sync.isPending ? t('connections.templates.syncing') : t('connections.templates.sync')}
          </Button>
        </Stack>
        {sync.isError && (
          <Alert
            severity="error"
            action={
              needsAccountId ? (
                <Button color="inherit" size="small" onClick={onEditConnection}>
                  {t('connections.templates.editConnection')}
                </Button>
              ) : undefined
            }
          >
            {templateSyncErrorText(sync.error)}
          </Alert>
        )}

        {list.isPending ? (
          <LoadingBox />
        ) : list.isError ? (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={() => void list.refetch()}>
                {t('connections.retry')}
              </Button>
            }
          >
            {t('connections.templates.loadFailed')}
          </Alert>
        ) : templates.length === 0 ? (
          <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
            {t('connections.templates.empty')}
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" aria-label={t('connections.templates.listLabel')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('connections.templates.columns.name')}</TableCell>
                  <TableCell>{t('connections.templates.columns.language')}</TableCell>
                  <TableCell>{t('connections.templates.columns.category')}</TableCell>
                  <TableCell>{t('connections.templates.columns.status')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {templates.map((template) => (
                  <TableRow key={template.id} sx={{ verticalAlign: 'top' }}>
                    <TableCell sx={{ minWidth: 220 }}>
                      <Typography variant="body2" sx={{ fontWeight: 500, mb: 1 }}>
                        {template.name}
                      </Typography>
                      <TemplatePreview template={template} />
                    </TableCell>
                    <TableCell>{template.language}</TableCell>
                    <TableCell>
                      {t(`connections.templates.categories.${template.category}`, {
                        defaultValue: template.category,
                      })}
                    </TableCell>
                    <TableCell>
                      <TemplateStatusChip status={template.status} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Stack>
    </DialogView>
  );
};

// A Cloud API connection's message templates (the copy the platform keeps) and their sync from the
// WhatsApp Business Account. A new sessionKey gives each opening a fresh body.
export const TemplatesDialog = ({
  open,
  connectionId,
  sessionKey,
  onClose,
  onEditConnection,
}: {
  open: boolean;
  connectionId: number | null;
  sessionKey: number;
  onClose: () => void;
  onEditConnection: (connectionId: number) => void;
}) => (
  <DialogFrame open={open} onClose={onClose} sessionKey={sessionKey} maxWidth="md">
    {connectionId !== null && (
      <TemplatesBody
        connectionId={connectionId}
        onEditConnection={() => onEditConnection(connectionId)}
      />
    )}
  </DialogFrame>
);
