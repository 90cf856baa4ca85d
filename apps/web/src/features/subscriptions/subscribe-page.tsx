import { useId, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  Grid,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import { Link as RouterLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isCurrentSubscription } from '../../components/billing-tables';
import { LoadingBox } from '../../components/loading-box';
import { MB } from '@atendi/shared';
import { formatBytes } from '../../lib/bytes';
import { CheckoutDialog } from './checkout-dialog';
import { usePublicPlans } from '../../api/queries/plans';
import { formatMoney } from '../../lib/money';
import { useCurrentSession } from '../../api/session';
import { planFlags, planLimits } from './plan-format';
import {
  isPurchasable,
  useCanSubscribe,
  useLiveSubscriptions,
  useSubscriptionsOverview,
  type PlanView,
} from './subscriptions.api';

const FeatureLine = ({ included, text }: { included: boolean; text: string }) => {
  const { t } = useTranslation();
  return (
    <ListItem disableGutters dense sx={{ py: 0.25 }}>
      <ListItemIcon sx={{ minWidth: 32 }}>
        {included ? (
          <CheckIcon color="success" fontSize="small" titleAccess={t('subscribe.included')} />
        ) : (
          <CloseIcon color="disabled" fontSize="small" titleAccess={t('subscribe.notIncluded')} />
        )}
      </ListItemIcon>
      <ListItemText
        primary={text}
        slotProps={{ primary: { color: included ? 'text.primary' : 'text.secondary' } }}
      />
    </ListItem>
  );
};

// A plan without a price: the company is told whom to ask; a super user, where to give it one.
const NotPurchasableHint = () => {
  const { t } = useTranslation();
  const { user } = useCurrentSession();
  return (
    <Stack spacing={0.5} sx={{ mt: 1, alignItems: 'center', textAlign: 'center' }}>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {t(user.super ? 'subscribe.notPurchasableSuper' : 'subscribe.notPurchasable')}
      </Typography>
      {user.super && (
        <Button size="small" component={RouterLink} to="/settings?tab=plans">
          {t('subscribe.syncPrices')}
        </Button>
      )}
    </Stack>
  );
};

// How a card stands to the company: the plan of its live subscription (nothing to pay: it renews by
// itself), the plan it is on without one (paying keeps it), or another plan.
type Standing = 'subscribed' | 'current' | 'other';

const PlanCard = ({
  plan,
  standing,
  canBuy,
  onSubscribe,
}: {
  plan: PlanView;
  standing: Standing;
  // False when nobody may buy now (payments off, not an admin, already subscribed).
  canBuy: boolean;
  onSubscribe: () => void;
}) => {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const purchasable = isPurchasable(plan);
  const isCurrent = standing !== 'other';
  // A limit of 0 means unlimited.
  const limitText = (limit: (typeof planLimits)[number]) =>
    plan[limit] > 0
      ? t(`subscribe.limits.${limit}`, { count: plan[limit] })
      : t(`subscribe.limits.${limit}Unlimited`);

  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      data-current={isCurrent || undefined}
      sx={{
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        ...(isCurrent && { borderColor: 'primary.main', borderWidth: 2 }),
      }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Stack
          direction="row"
          spacing={1}
          sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap' }}
        >
          <Typography id={titleId} variant="h6" component="h2">
            {plan.name}
          </Typography>
          {isCurrent && <Chip size="small" color="primary" label={t('subscribe.currentPlan')} />}
        </Stack>
        <Typography variant="h4" component="p" sx={{ my: 1 }}>
          {t('subscribe.perMonth', {
            price: formatMoney(plan.value, i18n.language, plan.currency),
          })}
        </Typography>
        <List disablePadding aria-label={t('subscribe.featuresOf', { plan: plan.name })}>
          {planLimits.map((limit) => (
            <FeatureLine key={limit} included text={limitText(limit)} />
          ))}
          <FeatureLine
            included
            text={
              plan.storageMb > 0
                ? t('subscribe.limits.storage', {
                    size: formatBytes(plan.storageMb * MB, i18n.language),
                  })
                : t('subscribe.limits.storageUnlimited')
            }
          />
          {planFlags.map((flag) => (
            <FeatureLine key={flag} included={plan[flag]} text={t(`subscribe.flags.${flag}`)} />
          ))}
        </List>
      </CardContent>
      <CardActions sx={{ flexDirection: 'column', alignItems: 'stretch', px: 2, pb: 2 }}>
        {standing === 'subscribed' ? (
          // Already paid for and renewing: nothing here starts a second subscription to it.
          <Button variant="outlined" component={RouterLink} to="/subscriptions">
            {t('subscribe.viewSubscription')}
          </Button>
        ) : (
          <Button variant="contained" disabled={!canBuy || !purchasable} onClick={onSubscribe}>
            {t(standing === 'current' ? 'subscribe.payCurrent' : 'subscribe.subscribe')}
          </Button>
        )}
        {standing !== 'subscribed' && !purchasable && <NotPurchasableHint />}
      </CardActions>
    </Card>
  );
};

// SPEC §2 /subscribe: the plans with a subscribe button each; the checkout steps follow.
export const SubscribePage = () => {
  const { t } = useTranslation();
  const plans = usePublicPlans();
  const overview = useSubscriptionsOverview();
  useLiveSubscriptions();
  const canSubscribe = useCanSubscribe();
  const [chosen, setChosen] = useState<number | null>(null);
  const [isCheckoutOpen, setCheckoutOpen] = useState(false);

  const { user } = useCurrentSession();
  const paymentsConfigured = overview.data?.paymentsConfigured ?? true;
  const currentSubscription = overview.data?.subscriptions.find(isCurrentSubscription);
  const hasCurrent = currentSubscription !== undefined;
  // The plan being paid for, else the one the company is on (a trial, or a lapsed payment).
  const currentPlanId = currentSubscription?.plan?.id ?? user.company.plan.id;
  const standingOf = (plan: PlanView): Standing =>
    plan.id !== currentPlanId ? 'other' : hasCurrent ? 'subscribed' : 'current';
  const canBuy = canSubscribe && paymentsConfigured && !hasCurrent && !overview.isPending;
  const list = plans.data ?? [];
  const purchasable = list.filter(isPurchasable);

  const open = (plan: PlanView) => {
    setChosen(plan.id);
    setCheckoutOpen(true);
  };

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('subscribe.title')}
      </Typography>
      {!paymentsConfigured && (
        <Alert severity="info" data-testid="payments-not-configured">
          {t('subscriptions.notConfigured')}
        </Alert>
      )}
      {paymentsConfigured && !canSubscribe && (
        <Alert severity="info">{t('subscribe.adminsOnly')}</Alert>
      )}
      {paymentsConfigured && hasCurrent && (
        <Alert
          severity="success"
          action={
            <Button color="inherit" size="small" component={RouterLink} to="/subscriptions">
              {t('subscribe.toSubscriptions')}
            </Button>
          }
        >
          {t('subscribe.alreadySubscribed')}
        </Alert>
      )}
      {plans.isPending ? (
        <LoadingBox />
      ) : plans.isSuccess && list.length === 0 ? (
        <Typography
          sx={{
            color: 'text.secondary',
          }}
        >
          {t('subscribe.empty')}
        </Typography>
      ) : (
        <Grid container spacing={2}>
          {list.map((plan) => (
            <Grid key={plan.id} size={{ xs: 12, sm: 6, md: 4 }}>
              <PlanCard
                plan={plan}
                standing={standingOf(plan)}
                canBuy={canBuy}
                onSubscribe={() => open(plan)}
              />
            </Grid>
          ))}
        </Grid>
      )}
      <CheckoutDialog
        open={isCheckoutOpen}
        plans={purchasable}
        initialPlanId={chosen}
        onClose={() => setCheckoutOpen(false)}
      />
    </Stack>
  );
};
