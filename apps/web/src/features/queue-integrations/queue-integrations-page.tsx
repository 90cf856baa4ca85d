import { useState } from 'react';
import { Button, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import HistoryIcon from '@mui/icons-material/History';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { can, type IntegrationView } from '@atendi/shared';
import { useCurrentSession } from '../../api/session';
import { useDeleteConfirm } from '../../components/delete-confirm';
import { MessagePage } from '../../components/message-page';
import { WarningBadge } from '../../components/warning-badge';
import { formatDateTime } from '../../lib/dates';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { usePagedList } from '../../lib/use-paged-list';
import { DeliveriesDialog, type DeliveriesTarget } from './deliveries-dialog';
import { IntegrationDialog } from './integration-dialog';
import { IntegrationLogo } from './integration-logo';
import {
  applyIntegrationEventToCache,
  deleteIntegration,
  integrationsList,
  useIntegrationLiveUpdates,
} from './queue-integrations.api';

type DialogState = { open: boolean; integration: IntegrationView | null; sessionKey: number };
type DeliveriesState = {
  open: boolean;
  integration: DeliveriesTarget | null;
  failedOnly: boolean;
  sessionKey: number;
};

const IntegrationsManager = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = usePagedList(integrationsList);
  const [dialog, setDialog] = useState<DialogState>({
    open: false,
    integration: null,
    sessionKey: 0,
  });
  const [deliveries, setDeliveries] = useState<DeliveriesState>({
    open: false,
    integration: null,
    failedOnly: false,
    sessionKey: 0,
  });

  useIntegrationLiveUpdates();

  const openDialog = (integration: IntegrationView | null) =>
    setDialog((current) => ({ open: true, integration, sessionKey: current.sessionKey + 1 }));
  const openDeliveries = ({ id, name }: IntegrationView, failedOnly: boolean) =>
    setDeliveries((current) => ({
      open: true,
      integration: { id, name },
      failedOnly,
      sessionKey: current.sessionKey + 1,
    }));

  const confirmDelete = useDeleteConfirm({
    remove: (integration: IntegrationView) => deleteIntegration(integration.id),
    onDeleted: (integration) =>
      applyIntegrationEventToCache(queryClient, {
        action: 'delete',
        integrationId: integration.id,
      }),
    deletedText: t('queueIntegrations.deleted'),
    title: (integration) => t('queueIntegrations.deleteTitle', { name: integration.name }),
    message: () => t('queueIntegrations.deleteText'),
    confirmLabel: t('queueIntegrations.delete'),
  });

  const columns: TableColumns<IntegrationView> = [
    {
      header: t('queueIntegrations.columns.type'),
      cell: (integration) => <IntegrationLogo type={integration.type} />,
      width: 72,
    },
    { header: t('queueIntegrations.columns.id'), cell: (integration) => integration.id, width: 80 },
    {
      header: t('queueIntegrations.columns.name'),
      cell: (integration) => (
        <Stack
          direction="row"
          spacing={1}
          sx={{
            alignItems: 'center',
          }}
        >
          <span>{integration.name}</span>
          {integration.lastError && (
            // The warning leads to the failed deliveries, which tell why the flow did not answer.
            <WarningBadge
              text={t('queueIntegrations.lastErrorButton', {
                text: t('queueIntegrations.lastError', {
                  at: formatDateTime(integration.lastError.at),
                  text: integration.lastError.message,
                }),
              })}
              onClick={() => openDeliveries(integration, true)}
            />
          )}
        </Stack>
      ),
      sx: { fontWeight: 500 },
    },
    actionsColumn(
      t('queueIntegrations.columns.actions'),
      (integration) => (
        <>
          <RowAction
            title={t('queueIntegrations.deliveriesAction')}
            label={t('queueIntegrations.deliveriesOf', { name: integration.name })}
            icon={<HistoryIcon fontSize="small" />}
            onClick={() => openDeliveries(integration, false)}
          />
          <RowAction
            title={t('queueIntegrations.edit')}
            label={t('queueIntegrations.editIntegration', { name: integration.name })}
            icon={<EditOutlinedIcon fontSize="small" />}
            onClick={() => openDialog(integration)}
          />
          <RowAction
            title={t('queueIntegrations.delete')}
            label={t('queueIntegrations.deleteIntegration', { name: integration.name })}
            icon={<DeleteOutlineIcon fontSize="small" />}
            onClick={() => confirmDelete.ask(integration)}
          />
        </>
      ),
      150,
    ),
  ];

  return (
    <>
      <PagedTable
        title={t('queueIntegrations.title')}
        searchLabel={t('queueIntegrations.search')}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
            {t('queueIntegrations.add')}
          </Button>
        }
        list={list}
        columns={columns}
        emptyText={t('queueIntegrations.empty')}
        noMatchesText={t('queueIntegrations.noMatches')}
        scrollTestId="integrations-scroll"
      />
      <IntegrationDialog
        open={dialog.open}
        integration={dialog.integration}
        sessionKey={dialog.sessionKey}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      <DeliveriesDialog
        open={deliveries.open}
        integration={deliveries.integration}
        failedOnly={deliveries.failedOnly}
        sessionKey={deliveries.sessionKey}
        onClose={() => setDeliveries((current) => ({ ...current, open: false }))}
      />
      {confirmDelete.dialog}
    </>
  );
};

// SPEC §2 Integrations (the route already needs the plan's useIntegrations): admins only; other
// profiles get a notice instead of a failing list.
export const QueueIntegrationsPage = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  if (!can(user, 'integrations:manage')) {
    return (
      <MessagePage
        title={t('queueIntegrations.noPermissionTitle')}
        text={t('queueIntegrations.noPermissionText')}
      />
    );
  }
  return <IntegrationsManager />;
};
