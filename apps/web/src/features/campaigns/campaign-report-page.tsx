import { useMemo, useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
  type ChipProps,
} from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  shippingReceipt,
  shippingStatuses,
  type CampaignShippingView,
  type CampaignStatus,
  type CampaignView,
  type ShippingStatus,
} from '@atendi/shared';
import { ApiError } from '../../api/http-client';
import { errorText, toastError } from '../../api/toasts';
import { LoadingBox } from '../../components/loading-box';
import { MessagePage } from '../../components/message-page';
import { PagedTable, type TableColumns } from '../../components/paged-table';
import { formatDate, parseDate } from '../../lib/dates';
import { usePagedList } from '../../lib/use-paged-list';
import {
  campaignQuery,
  campaignShippingList,
  downloadCampaignCsv,
  reportFigures,
  useCampaignReportLiveUpdates,
} from './campaign-report.api';
import { CampaignHeldAlert } from './campaign-held';

const pad = (value: number) => String(value).padStart(2, '0');

// dd/MM/yyyy (SPEC §9) followed by the local time.
const formatDateTime = (value: string | null | undefined) => {
  const date = parseDate(value);
  if (!date) return '';
  return `${formatDate(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

const campaignStatusColors: Record<CampaignStatus, ChipProps['color']> = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'warning',
  CANCELADA: 'error',
  FINALIZADA: 'success',
};

const shippingStatusColors: Record<ShippingStatus, ChipProps['color']> = {
  pending: 'default',
  sending: 'info',
  confirmation: 'warning',
  delivered: 'success',
  failed: 'error',
  opted_out: 'secondary',
};

const BackToCampaigns = () => {
  const { t } = useTranslation();
  return (
    <Button variant="outlined" startIcon={<ArrowBackIcon />} component={RouterLink} to="/campaigns">
      {t('campaignReport.back')}
    </Button>
  );
};

const CsvButton = ({ campaignId }: { campaignId: number }) => {
  const { t } = useTranslation();
  const [isDownloading, setIsDownloading] = useState(false);
  const download = async () => {
    setIsDownloading(true);
    try {
      await downloadCampaignCsv(campaignId);
    } catch (error) {
      toastError(error);
    } finally {
      setIsDownloading(false);
    }
  };
  return (
    <Button
      variant="contained"
      startIcon={isDownloading ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
      disabled={isDownloading}
      onClick={() => void download()}
    >
      {t('campaignReport.downloadCsv')}
    </Button>
  );
};

// One figure of the report: a title over its value, and a caption when there is more to say.
const ReportCard = ({
  id,
  title,
  value,
  caption,
}: {
  id: string;
  title: string;
  value: ReactNode;
  caption?: ReactNode;
}) => {
  const titleId = `campaign-report-${id}-title`;
  return (
    <Card variant="outlined" role="group" aria-labelledby={titleId}>
      <CardContent sx={{ '&:last-child': { pb: 2 } }}>
        <Typography
          id={titleId}
          variant="body2"
          sx={{
            color: 'text.secondary',
            fontWeight: 500,
            mb: 0.5,
          }}
        >
          {title}
        </Typography>
        <Typography variant="h6" component="p" sx={{ overflowWrap: 'anywhere' }}>
          {value}
        </Typography>
        {caption && (
          <Typography
            variant="caption"
            sx={{
              color: 'text.secondary',
            }}
          >
            {caption}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
};

// SPEC §2 Campaign report: the status, delivered of valid with a progress bar, and the cards.
const ReportSummary = ({ campaign }: { campaign: CampaignView }) => {
  const { t } = useTranslation();
  const { report } = campaign;
  const { valid, sent, progress } = reportFigures(report);
  const none = t('campaignReport.none');
  const showsConfirmation = campaign.confirmation || report.awaitingConfirmation > 0;
  const figures = [
    { key: 'failed', count: report.failed },
    { key: 'optedOut', count: report.optedOut },
    ...(showsConfirmation
      ? [{ key: 'awaitingConfirmation', count: report.awaitingConfirmation }]
      : []),
    { key: 'pending', count: report.pending },
  ];
  const audience = campaign.contactList?.name ?? campaign.tag?.name ?? none;

  return (
    <Stack spacing={2}>
      {campaign.held && <CampaignHeldAlert held={campaign.held} />}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={1.5}>
          <Stack
            direction="row"
            spacing={2}
            useFlexGap
            sx={{
              alignItems: 'center',
              flexWrap: 'wrap',
            }}
          >
            <Chip
              label={t(`campaignReport.statuses.${campaign.status}`)}
              color={campaignStatusColors[campaign.status]}
            />
            <Typography variant="h6" component="p" sx={{ flexGrow: 1 }}>
              {t('campaignReport.sentOfValid', { sent, valid })}
            </Typography>
            <Typography
              variant="body2"
              aria-hidden
              sx={{
                color: 'text.secondary',
              }}
            >
              {t('campaignReport.percent', { percent: progress })}
            </Typography>
          </Stack>
          <LinearProgress
            variant="determinate"
            value={progress}
            aria-label={t('campaignReport.progressLabel')}
            aria-valuetext={t('campaignReport.percent', { percent: progress })}
            sx={{ height: 10, borderRadius: 5 }}
          />
          <Stack
            direction="row"
            spacing={3}
            useFlexGap
            sx={{
              flexWrap: 'wrap',
            }}
          >
            {figures.map(({ key, count }) => (
              <Typography
                key={key}
                variant="body2"
                sx={{
                  color: 'text.secondary',
                }}
              >
                {t(`campaignReport.figures.${key}`, { count })}
              </Typography>
            ))}
          </Stack>
        </Stack>
      </Paper>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            sm: 'repeat(2, minmax(0, 1fr))',
            lg: 'repeat(3, minmax(0, 1fr))',
          },
        }}
      >
        <ReportCard id="valid" title={t('campaignReport.cards.validContacts')} value={valid} />
        <ReportCard id="sent" title={t('campaignReport.cards.sent')} value={sent} />
        <ReportCard
          id="delivered"
          title={t('campaignReport.cards.delivered')}
          value={report.delivered}
        />
        <ReportCard id="read" title={t('campaignReport.cards.read')} value={report.read} />
        <ReportCard
          id="connection"
          title={t('campaignReport.cards.connection')}
          value={campaign.whatsapp?.name ?? none}
        />
        <ReportCard
          id="audience"
          title={t('campaignReport.cards.contactList')}
          value={audience}
          caption={
            campaign.contactList && campaign.tag
              ? t('campaignReport.tagCaption', { name: campaign.tag.name })
              : undefined
          }
        />
        <ReportCard
          id="schedule"
          title={t('campaignReport.cards.schedule')}
          value={formatDateTime(campaign.scheduledAt) || t('campaignReport.notScheduled')}
        />
        <ReportCard
          id="completion"
          title={t('campaignReport.cards.completion')}
          value={formatDateTime(campaign.completedAt) || t('campaignReport.notCompleted')}
        />
      </Box>
    </Stack>
  );
};

// The per-recipient table: searchable by number or name and filtered by status.
const RecipientsTable = ({ campaignId }: { campaignId: number }) => {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ShippingStatus | ''>('');
  const source = useMemo(() => campaignShippingList(campaignId, status), [campaignId, status]);
  const list = usePagedList(source);

  // A sent message says how far it got (sent, delivered, read); the others their status.
  const receiptLabel = (row: CampaignShippingView) => {
    const receipt = shippingReceipt(row);
    return receipt
      ? t(`campaignReport.receipts.${receipt}`)
      : t(`campaignReport.shippingStatuses.${row.status}`);
  };

  const columns: TableColumns<CampaignShippingView> = [
    { header: t('campaignReport.recipients.columns.number'), cell: (row) => row.number },
    { header: t('campaignReport.recipients.columns.name'), cell: (row) => row.name },
    {
      header: t('campaignReport.recipients.columns.variant'),
      cell: (row) =>
        row.variant === null
          ? t('campaignReport.none')
          : t('campaignReport.recipients.variant', { number: row.variant }),
    },
    {
      header: t('campaignReport.recipients.columns.status'),
      cell: (row) => (
        <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
          <Chip
            size="small"
            label={receiptLabel(row)}
            color={shippingStatusColors[row.status]}
            variant="outlined"
          />
          {/* Got the message, then answered with an opt-out word. */}
          {row.optedOutAt && row.status !== 'opted_out' && (
            <Chip
              size="small"
              label={t('campaignReport.shippingStatuses.opted_out')}
              color={shippingStatusColors.opted_out}
              variant="outlined"
            />
          )}
        </Stack>
      ),
    },
    {
      header: t('campaignReport.recipients.columns.sentAt'),
      cell: (row) => formatDateTime(row.deliveredAt),
      sx: { whiteSpace: 'nowrap' },
    },
    {
      header: t('campaignReport.recipients.columns.error'),
      cell: (row) => row.error ?? '',
      sx: { color: 'error.main', overflowWrap: 'anywhere' },
    },
  ];

  return (
    <PagedTable
      title={t('campaignReport.recipients.title')}
      tableLabel={t('campaignReport.recipients.tableLabel')}
      searchLabel={t('campaignReport.recipients.search')}
      toolbar={
        <TextField
          select
          size="small"
          label={t('campaignReport.recipients.statusFilter')}
          value={status}
          onChange={(event) => setStatus(event.target.value as ShippingStatus | '')}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">{t('campaignReport.recipients.all')}</MenuItem>
          {shippingStatuses.map((option) => (
            <MenuItem key={option} value={option}>
              {t(`campaignReport.shippingStatuses.${option}`)}
            </MenuItem>
          ))}
        </TextField>
      }
      stackBelow="md"
      list={list}
      columns={columns}
      emptyText={
        status
          ? t('campaignReport.recipients.noneWithStatus')
          : t('campaignReport.recipients.empty')
      }
      noMatchesText={t('campaignReport.recipients.noMatches')}
      scrollTestId="campaign-recipients-scroll"
    />
  );
};

const CampaignReport = ({ campaign }: { campaign: CampaignView }) => {
  const { t } = useTranslation();
  return (
    <Stack spacing={3}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{
          alignItems: { xs: 'stretch', sm: 'center' },
        }}
      >
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
            {campaign.name}
          </Typography>
          <Typography
            variant="body2"
            sx={{
              color: 'text.secondary',
            }}
          >
            {t('pages.campaignReport')}
          </Typography>
        </Box>
        <Stack direction="row" spacing={1}>
          <BackToCampaigns />
          <CsvButton campaignId={campaign.id} />
        </Stack>
      </Stack>
      <ReportSummary campaign={campaign} />
      <RecipientsTable campaignId={campaign.id} />
    </Stack>
  );
};

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

// SPEC §2 Campaign report (/campaign/:campaignId/report): live while the campaign runs (socket
// updates), read again 5 s after it finishes. A campaign that does not exist, or is deleted while
// open, says so and leads back to the campaigns.
export const CampaignReportPage = () => {
  const { t } = useTranslation();
  const { campaignId: param = '' } = useParams();
  const campaignId = /^\d{1,9}$/.test(param) ? Number(param) : 0;
  const query = useQuery({ ...campaignQuery(campaignId), enabled: campaignId > 0 });
  const [deletedId, setDeletedId] = useState<number | null>(null);

  useCampaignReportLiveUpdates(campaignId, () => setDeletedId(campaignId));

  if (deletedId !== null && deletedId === campaignId)
    return (
      <MessagePage
        title={t('campaignReport.deletedTitle')}
        text={t('campaignReport.deletedText')}
        action={<BackToCampaigns />}
      />
    );
  if (campaignId === 0 || isNotFound(query.error))
    return (
      <MessagePage
        title={t('campaignReport.notFoundTitle')}
        text={t('errors.ERR_NO_CAMPAIGN_FOUND')}
        action={<BackToCampaigns />}
      />
    );
  if (!query.data && query.error)
    return (
      <MessagePage
        title={t('campaignReport.loadFailed')}
        text={errorText(query.error)}
        action={<BackToCampaigns />}
      />
    );
  if (!query.data) return <LoadingBox />;
  return <CampaignReport key={query.data.id} campaign={query.data} />;
};
