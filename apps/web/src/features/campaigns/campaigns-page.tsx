import { useEffect, useState } from 'react';
import { Button, Chip, Stack, type ChipProps } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import AssessmentOutlinedIcon from '@mui/icons-material/AssessmentOutlined';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutlined';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';
import PlayCircleOutlineIcon from '@mui/icons-material/PlayCircleOutlined';
import StopCircleOutlinedIcon from '@mui/icons-material/StopCircleOutlined';
import VisibilityOutlinedIcon from '@mui/icons-material/VisibilityOutlined';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { useTranslation } from 'react-i18next';
import { campaignMessagesEditable, type CampaignStatus, type CampaignView } from '@atendi/shared';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDeleteConfirm } from '../../components/delete-confirm';
import {
  actionsColumn,
  PagedTable,
  RowAction,
  type TableColumns,
} from '../../components/paged-table';
import { formatDate, parseDate } from '../../lib/dates';
import { usePagedList } from '../../lib/use-paged-list';
import { CampaignDialog } from './campaign-dialog';
import { CampaignHeldChip } from './campaign-held';
import {
  applyCampaignEventToCache,
  campaignKeys,
  campaignsList,
  cancelCampaign,
  deleteCampaign,
  restartCampaign,
  useCampaignLiveUpdates,
} from './campaigns.api';

type DialogState = { open: boolean; campaign: CampaignView | null; sessionKey: number };

const statusColors: Record<CampaignStatus, ChipProps['color']> = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'warning',
  CANCELADA: 'error',
  FINALIZADA: 'success',
};

const pad = (value: number) => String(value).padStart(2, '0');

// SPEC §9: dd/MM/yyyy, with the time.
const formatDateTime = (value: string | Date | null) => {
  const date = parseDate(value);
  if (!date) return '—';
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

// SPEC §2 Campaigns: search; table of name, status, contact list, connection, scheduled at,
// completed at and actions (stop while running or scheduled, restart once cancelled, report, edit,
// delete). Rows follow the campaign events live.
export const CampaignsPage = () => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const list = usePagedList(campaignsList);
  const [dialog, setDialog] = useState<DialogState>({
    open: false,
    campaign: null,
    sessionKey: 0,
  });
  // The campaign whose stop is being asked; kept while the dialog fades out.
  const [stopping, setStopping] = useState<CampaignView | null>(null);
  const [isStopOpen, setStopOpen] = useState(false);

  useCampaignLiveUpdates();
  // Events that came while another page was open (a campaign finishing under its report) reached no
  // list: read it again on arrival, showing the rows kept meanwhile.
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: campaignKeys.lists });
  }, [queryClient]);

  const openDialog = (campaign: CampaignView | null) =>
    setDialog((current) => ({ open: true, campaign, sessionKey: current.sessionKey + 1 }));

  const applySaved = (record: CampaignView) =>
    applyCampaignEventToCache(queryClient, { action: 'update', record });

  // A failure is toasted like every mutation's (api/query-client.ts).
  const cancel = useMutation({
    mutationFn: (campaign: CampaignView) => cancelCampaign(campaign.id),
    onSuccess: (record) => {
      applySaved(record);
      toast.success(t('campaigns.cancelled'));
    },
    onSettled: () => setStopOpen(false),
  });
  const restart = useMutation({
    mutationFn: (campaign: CampaignView) => restartCampaign(campaign.id),
    onSuccess: (record) => {
      applySaved(record);
      toast.success(t('campaigns.restarted'));
    },
  });

  const confirmDelete = useDeleteConfirm({
    remove: (campaign: CampaignView) => deleteCampaign(campaign.id),
    onDeleted: (campaign) =>
      applyCampaignEventToCache(queryClient, { action: 'delete', id: campaign.id }),
    deletedText: t('campaigns.deleted'),
    title: (campaign) => t('campaigns.deleteTitle', { name: campaign.name }),
    message: () => t('campaigns.deleteText'),
    confirmLabel: t('campaigns.actions.delete'),
  });

  const audienceOf = (campaign: CampaignView) =>
    [
      campaign.contactList?.name,
      campaign.tag && t('campaigns.tagAudience', { name: campaign.tag.name }),
    ]
      .filter(Boolean)
      .join(' · ') || '—';

  const columns: TableColumns<CampaignView> = [
    {
      header: t('campaigns.columns.name'),
      // A running campaign waiting for its number's limit says so under its name.
      cell: (campaign) =>
        campaign.held ? (
          <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
            <span>{campaign.name}</span>
            <CampaignHeldChip held={campaign.held} />
          </Stack>
        ) : (
          campaign.name
        ),
    },
    {
      header: t('campaigns.columns.status'),
      cell: (campaign) => (
        <Chip
          size="small"
          label={t(`campaigns.statuses.${campaign.status}`)}
          color={statusColors[campaign.status]}
          variant={campaign.status === 'INATIVA' ? 'outlined' : 'filled'}
        />
      ),
      align: 'center',
      width: 130,
    },
    { header: t('campaigns.columns.contactList'), cell: audienceOf },
    {
      header: t('campaigns.columns.connection'),
      cell: (campaign) => campaign.whatsapp?.name ?? '—',
    },
    {
      header: t('campaigns.columns.scheduledAt'),
      cell: (campaign) => formatDateTime(campaign.scheduledAt),
      align: 'center',
      width: 150,
      sx: { whiteSpace: 'nowrap' },
    },
    {
      header: t('campaigns.columns.completedAt'),
      cell: (campaign) => formatDateTime(campaign.completedAt),
      align: 'center',
      width: 150,
      sx: { whiteSpace: 'nowrap' },
    },
    actionsColumn(
      t('campaigns.columns.actions'),
      (campaign) => {
        const canStop = campaign.status === 'EM_ANDAMENTO' || campaign.status === 'PROGRAMADA';
        const canEdit = campaignMessagesEditable(campaign);
        return (
          <>
            {canStop && (
              <RowAction
                title={t('campaigns.actions.stop')}
                label={t('campaigns.actions.stopNamed', { name: campaign.name })}
                icon={<StopCircleOutlinedIcon fontSize="small" />}
                disabled={cancel.isPending}
                onClick={() => {
                  setStopping(campaign);
                  setStopOpen(true);
                }}
              />
            )}
            {campaign.status === 'CANCELADA' && (
              <RowAction
                title={t('campaigns.actions.restart')}
                label={t('campaigns.actions.restartNamed', { name: campaign.name })}
                icon={<PlayCircleOutlineIcon fontSize="small" />}
                disabled={restart.isPending}
                onClick={() => restart.mutate(campaign)}
              />
            )}
            <RowAction
              title={t('campaigns.actions.report')}
              label={t('campaigns.actions.reportNamed', { name: campaign.name })}
              icon={<AssessmentOutlinedIcon fontSize="small" />}
              onClick={() => navigate(`/campaign/${campaign.id}/report`)}
            />
            <RowAction
              title={canEdit ? t('campaigns.actions.edit') : t('campaigns.actions.view')}
              label={
                canEdit
                  ? t('campaigns.actions.editNamed', { name: campaign.name })
                  : t('campaigns.actions.viewNamed', { name: campaign.name })
              }
              icon={
                canEdit ? (
                  <EditOutlinedIcon fontSize="small" />
                ) : (
                  <VisibilityOutlinedIcon fontSize="small" />
                )
              }
              onClick={() => openDialog(campaign)}
            />
            <RowAction
              title={t('campaigns.actions.delete')}
              label={t('campaigns.actions.deleteNamed', { name: campaign.name })}
              icon={<DeleteOutlineIcon fontSize="small" />}
              onClick={() => confirmDelete.ask(campaign)}
            />
          </>
        );
      },
      200,
    ),
  ];

  return (
    <>
      <PagedTable
        title={t('menu.campaigns')}
        searchLabel={t('campaigns.search')}
        toolbar={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => openDialog(null)}>
            {t('campaigns.add')}
          </Button>
        }
        list={list}
        columns={columns}
        emptyText={t('campaigns.empty')}
        noMatchesText={t('campaigns.noMatches')}
        scrollTestId="campaigns-scroll"
      />
      <CampaignDialog
        open={dialog.open}
        campaign={dialog.campaign}
        sessionKey={dialog.sessionKey}
        onClose={() => setDialog((current) => ({ ...current, open: false }))}
      />
      <ConfirmDialog
        open={isStopOpen}
        title={stopping ? t('campaigns.stopTitle', { name: stopping.name }) : ''}
        message={t('campaigns.stopText')}
        confirmLabel={t('campaigns.actions.stop')}
        isDestructive
        isBusy={cancel.isPending}
        onConfirm={() => isStopOpen && stopping && cancel.mutate(stopping)}
        onClose={() => setStopOpen(false)}
      />
      {confirmDelete.dialog}
    </>
  );
};
