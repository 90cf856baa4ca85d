import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
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
  useMediaQuery,
  type Theme,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ArticleOutlinedIcon from '@mui/icons-material/ArticleOutlined';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import HistoryIcon from '@mui/icons-material/History';
import PhoneAndroidIcon from '@mui/icons-material/PhoneAndroid';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { can, sessionActions, type WhatsappView } from '@atendi/shared';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { useCurrentSession } from '../../api/session';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { actionsColumn, RowCard, type TableColumn } from '../../components/paged-table';
import { CloudNumberHealth } from './cloud-health';
import { ConnectionDialog } from './connection-dialog';
import { ConnectionHistoryDialog } from './connection-history-dialog';
import type { ConnectionTab } from './connection-form.schema';
import { ConnectionStatusLabel, formatLastUpdate } from './connection-status';
import {
  applyWhatsappEventToCache,
  connectionKeys,
  useConnections,
} from '../../api/queries/connections';
import {
  deleteConnection,
  disconnectSession,
  requestNewQr,
  startSession,
  type Connection,
} from './connections.api';
import { QrCodeDialog } from './qr-code-dialog';
import { SimulatorPhoneDialog } from './simulator-phone-dialog';
import { TemplatesDialog } from './templates-dialog';

// One state per dialog; a new sessionKey gives each opening a fresh body.
type DialogState = { open: boolean; connectionId: number | null; sessionKey: number };
const closedDialog: DialogState = { open: false, connectionId: null, sessionKey: 0 };

const useDialogState = () => {
  const [state, setState] = useState<DialogState>(closedDialog);
  const open = (connectionId: number | null) =>
    setState((current) => ({ open: true, connectionId, sessionKey: current.sessionKey + 1 }));
  const close = () => setState((current) => ({ ...current, open: false }));
  return { state, open, close };
};

// SPEC §4: the session buttons a connection's status offers.
const SessionButtons = ({
  connection,
  busyId,
  onShowQr,
  onTryAgain,
  onNewQr,
  onDisconnect,
}: {
  connection: Connection;
  busyId: number | null;
  onShowQr: () => void;
  onTryAgain: () => void;
  onNewQr: () => void;
  onDisconnect: () => void;
}) => {
  const { t } = useTranslation();
  const isBusy = busyId === connection.id;
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      sx={{
        flexWrap: 'wrap',
      }}
    >
      {sessionActions(connection.status).map((action) => {
        switch (action) {
          case 'showQr':
            return (
              <Button key={action} size="small" variant="contained" onClick={onShowQr}>
                {t('connections.session.showQr')}
              </Button>
            );
          case 'tryAgain':
            return (
              <Button
                key={action}
                size="small"
                variant="outlined"
                disabled={isBusy}
                onClick={onTryAgain}
              >
                {t('connections.session.tryAgain')}
              </Button>
            );
          case 'newQr':
            return (
              <Button
                key={action}
                size="small"
                variant="contained"
                disabled={isBusy}
                onClick={onNewQr}
              >
                {t('connections.session.newQr')}
              </Button>
            );
          case 'connecting':
            return (
              <Button
                key={action}
                size="small"
                variant="outlined"
                disabled
                startIcon={<CircularProgress size={14} color="inherit" />}
              >
                {t('connections.session.connecting')}
              </Button>
            );
          case 'disconnect':
            return (
              <Button
                key={action}
                size="small"
                variant="outlined"
                color="error"
                disabled={isBusy}
                onClick={onDisconnect}
              >
                {t('connections.session.disconnect')}
              </Button>
            );
        }
      })}
    </Stack>
  );
};

export const ConnectionsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useCurrentSession();
  const canAdd = can(user, 'connections-page:addConnection');
  const canUseSession = can(user, 'connections-page:actionButtons');
  const canEdit = can(user, 'connections-page:editOrDeleteConnection');
  const { data: connections = [], isPending, isError, refetch } = useConnections();
  const form = useDialogState();
  const qr = useDialogState();
  const phone = useDialogState();
  const templates = useDialogState();
  const history = useDialogState();
  // The tab the connection form opens on (the templates dialog sends to the Cloud API fields).
  const [formTab, setFormTab] = useState<ConnectionTab | undefined>(undefined);
  const openForm = (connectionId: number | null, tab?: ConnectionTab) => {
    setFormTab(tab);
    form.open(connectionId);
  };
  const [toDelete, setToDelete] = useState<Connection | null>(null);
  const [toDisconnect, setToDisconnect] = useState<Connection | null>(null);

  // The new session state arrives live; a refetch covers a socket that is down.
  const refreshList = () => queryClient.invalidateQueries({ queryKey: connectionKeys.list });
  const tryAgain = useMutation({
    mutationFn: startSession,
    onSuccess: () => void refreshList(),
  });
  const newQr = useMutation({
    mutationFn: (id: number) => requestNewQr(id),
    onSuccess: (_data, id) => {
      qr.open(id);
      void refreshList();
    },
  });
  const disconnect = useMutation({
    mutationFn: disconnectSession,
    onSuccess: () => {
      toast.success(t('connections.disconnected'));
      void refreshList();
    },
    onSettled: () => setToDisconnect(null),
  });
  const remove = useMutation({
    mutationFn: deleteConnection,
    onSuccess: (_data, id) => {
      applyWhatsappEventToCache(queryClient, { action: 'delete', whatsappId: id });
      toast.success(t('connections.deleted'));
    },
    onSettled: () => setToDelete(null),
  });
  const busyId =
    [tryAgain, newQr, disconnect].find((mutation) => mutation.isPending)?.variables ?? null;

  // Below 600 px each connection is a card (components/paged-table.tsx RowCard).
  const asCards = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const columns: TableColumn<WhatsappView>[] = [
    {
      header: t('connections.columns.name'),
      cell: (connection) => connection.name,
      sx: { fontWeight: 500 },
    },
    {
      header: t('connections.columns.status'),
      cell: (connection) => (
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <ConnectionStatusLabel status={connection.status} />
          <CloudNumberHealth connection={connection} />
        </Stack>
      ),
    },
    ...(canUseSession
      ? [
          {
            header: t('connections.columns.session'),
            cell: (connection: WhatsappView) => (
              <Stack
                direction="row"
                spacing={1}
                useFlexGap
                sx={{ alignItems: 'center', flexWrap: 'wrap' }}
              >
                <SessionButtons
                  connection={connection}
                  busyId={busyId}
                  onShowQr={() => qr.open(connection.id)}
                  onTryAgain={() => tryAgain.mutate(connection.id)}
                  onNewQr={() => newQr.mutate(connection.id)}
                  onDisconnect={() => setToDisconnect(connection)}
                />
                {connection.provider === 'simulator' && (
                  <Button
                    size="small"
                    startIcon={<PhoneAndroidIcon />}
                    onClick={() => phone.open(connection.id)}
                  >
                    {t('connections.session.phone')}
                  </Button>
                )}
              </Stack>
            ),
          },
        ]
      : []),
    {
      header: t('connections.columns.lastUpdate'),
      cell: (connection) => formatLastUpdate(connection.updatedAt),
      sx: { whiteSpace: 'nowrap' },
    },
    {
      header: t('connections.columns.default'),
      align: 'center',
      cell: (connection) =>
        connection.isDefault && (
          <CheckCircleIcon
            color="success"
            fontSize="small"
            titleAccess={t('connections.isDefault')}
          />
        ),
    },
    ...(canEdit || canUseSession
      ? [
          actionsColumn(
            t('connections.columns.actions'),
            (connection: WhatsappView) => (
              <>
                {canUseSession && (
                  <Tooltip title={t('connections.history.action')}>
                    <IconButton
                      size="small"
                      aria-label={t('connections.history.actionNamed', { name: connection.name })}
                      onClick={() => history.open(connection.id)}
                    >
                      <HistoryIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
                {canEdit && connection.provider === 'cloud' && (
                  <Tooltip title={t('connections.templates.action')}>
                    <IconButton
                      size="small"
                      aria-label={t('connections.templates.actionNamed', {
                        name: connection.name,
                      })}
                      onClick={() => templates.open(connection.id)}
                    >
                      <ArticleOutlinedIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                )}
                {canEdit && (
                  <>
                    <Tooltip title={t('connections.edit')}>
                      <IconButton
                        size="small"
                        aria-label={t('connections.editConnection', { name: connection.name })}
                        onClick={() => openForm(connection.id)}
                      >
                        <EditOutlinedIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('connections.delete')}>
                      <IconButton
                        size="small"
                        aria-label={t('connections.deleteConnection', { name: connection.name })}
                        onClick={() => setToDelete(connection)}
                      >
                        <DeleteOutlineIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </>
                )}
              </>
            ),
            180,
          ),
        ]
      : []),
  ];
  const columnCount = columns.length;
  // Loading, failed and empty: one row across the table (or under the cards).
  const states = (
    <>
      {isPending && (
        <TableRow>
          <TableCell colSpan={columnCount} align="center">
            <CircularProgress size={24} aria-label={t('app.loading')} />
          </TableCell>
        </TableRow>
      )}
      {isError && connections.length === 0 && (
        <TableRow>
          <TableCell colSpan={columnCount}>
            <Alert
              severity="error"
              action={
                <Button color="inherit" size="small" onClick={() => void refetch()}>
                  {t('connections.retry')}
                </Button>
              }
            >
              {t('connections.loadFailed')}
            </Alert>
          </TableCell>
        </TableRow>
      )}
      {!isPending && !isError && connections.length === 0 && (
        <TableRow>
          <TableCell colSpan={columnCount}>
            <Box sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
              {t('connections.empty')}
            </Box>
          </TableCell>
        </TableRow>
      )}
    </>
  );
  const hasState =
    isPending ||
    (isError && connections.length === 0) ||
    (!isPending && !isError && connections.length === 0);

  return (
    <Stack spacing={2}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{
          alignItems: { xs: 'stretch', sm: 'center' },
        }}
      >
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('connections.title')}
        </Typography>
        {canAdd && (
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openForm(null)}>
            {t('connections.add')}
          </Button>
        )}
      </Stack>

      {asCards ? (
        <Stack spacing={1.5}>
          {connections.length > 0 && (
            <Stack
              component="ul"
              aria-label={t('connections.title')}
              spacing={1.5}
              sx={{ m: 0, p: 0 }}
            >
              {connections.map((connection) => (
                <RowCard key={connection.id} row={connection} columns={columns} />
              ))}
            </Stack>
          )}
          {hasState && (
            <Paper variant="outlined">
              <Table size="small">
                <TableBody>{states}</TableBody>
              </Table>
            </Paper>
          )}
        </Stack>
      ) : (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('connections.title')}>
            <TableHead>
              <TableRow>
                {columns.map((column, index) => (
                  <TableCell
                    key={index}
                    align={column.align}
                    sx={column.width === undefined ? undefined : { width: column.width }}
                  >
                    {column.header}
                  </TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {connections.map((connection) => (
                <TableRow key={connection.id} hover>
                  {columns.map((column, index) => (
                    <TableCell key={index} align={column.align} sx={column.sx}>
                      {column.cell(connection)}
                    </TableCell>
                  ))}
                </TableRow>
              ))}
              {states}
            </TableBody>
          </Table>
        </TableContainer>
      )}

      <ConnectionDialog
        open={form.state.open}
        connectionId={form.state.connectionId}
        sessionKey={form.state.sessionKey}
        initialTab={formTab}
        onClose={form.close}
      />
      <TemplatesDialog
        open={templates.state.open}
        connectionId={templates.state.connectionId}
        sessionKey={templates.state.sessionKey}
        onClose={templates.close}
        onEditConnection={(connectionId) => {
          templates.close();
          openForm(connectionId, 'cloud');
        }}
      />
      <ConnectionHistoryDialog
        open={history.state.open}
        connectionId={history.state.connectionId}
        sessionKey={history.state.sessionKey}
        onClose={history.close}
      />
      <QrCodeDialog
        open={qr.state.open}
        connectionId={qr.state.connectionId}
        sessionKey={qr.state.sessionKey}
        onClose={qr.close}
        onOpenPhone={(connectionId) => {
          qr.close();
          phone.open(connectionId);
        }}
      />
      <SimulatorPhoneDialog
        open={phone.state.open}
        connectionId={phone.state.connectionId}
        sessionKey={phone.state.sessionKey}
        onClose={phone.close}
      />
      <ConfirmDialog
        open={toDisconnect !== null}
        title={t('connections.disconnectTitle', { name: toDisconnect?.name ?? '' })}
        message={t('connections.disconnectText')}
        confirmLabel={t('connections.session.disconnect')}
        isDestructive
        isBusy={disconnect.isPending}
        onConfirm={() => toDisconnect && disconnect.mutate(toDisconnect.id)}
        onClose={() => setToDisconnect(null)}
      />
      <ConfirmDialog
        open={toDelete !== null}
        title={t('connections.deleteTitle', { name: toDelete?.name ?? '' })}
        message={t('connections.deleteText')}
        confirmLabel={t('connections.delete')}
        isDestructive
        isBusy={remove.isPending}
        onConfirm={() => toDelete && remove.mutate(toDelete.id)}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
};
