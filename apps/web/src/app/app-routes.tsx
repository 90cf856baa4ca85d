import type { ComponentType } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/full-page-spinner';
import { LoadingBox } from '../components/loading-box';
import { TicketsPage } from '../features/tickets/tickets-page';
import { lazyComponent } from '../lib/lazy-component';
import { hasCampaignFlag, readStorage, storageKeys } from '../lib/storage';
import {
  CompanyStatusGate,
  PlanFeatureRoute,
  PublicOnly,
  RequireAuth,
  SuperUserRoute,
} from './guards';
import { AppLayout } from './layout/app-layout';

// The inbox (where agents spend their day) is in the first load with the shell; every other page is
// fetched the first time it is visited. The fallback is the app's spinner: inside the shell where the
// page goes, or the whole screen before login.
const lazyPage = <K extends string>(
  load: () => Promise<{ [name in K]: ComponentType }>,
  name: K,
  Fallback: ComponentType = LoadingBox,
) => lazyComponent(() => load().then((module) => module[name]), <Fallback />);

// The login page and its form library are not needed by a returning user, whom the refresh cookie
// takes straight to the app. A browser without a stored token is probably going there: it fetches
// the page at once, beside the session's refresh, rather than once the refresh has failed.
const LoginPage = lazyPage(
  () => import('../features/auth/login-page'),
  'LoginPage',
  FullPageSpinner,
);
if (readStorage(storageKeys.token) === null) {
  // A failure here is not the page's: rendering it asks again.
  LoginPage.preload().catch(() => undefined);
}
const SignupPage = lazyPage(
  () => import('../features/auth/signup-page'),
  'SignupPage',
  FullPageSpinner,
);
const ForgetPasswordPage = lazyPage(
  () => import('../features/auth/forget-password-page'),
  'ForgetPasswordPage',
  FullPageSpinner,
);
const NotFoundPage = lazyPage(() => import('../components/not-found-page'), 'NotFoundPage');
const AnnouncementsPage = lazyPage(
  () => import('../features/announcements/announcements-page'),
  'AnnouncementsPage',
);
const CampaignReportPage = lazyPage(
  () => import('../features/campaigns/campaign-report-page'),
  'CampaignReportPage',
);
const CampaignsConfigPage = lazyPage(
  () => import('../features/campaigns/campaigns-config-page'),
  'CampaignsConfigPage',
);
const CampaignsPage = lazyPage(
  () => import('../features/campaigns/campaigns-page'),
  'CampaignsPage',
);
const ConnectionsPage = lazyPage(
  () => import('../features/connections/connections-page'),
  'ConnectionsPage',
);
const ContactListItemsPage = lazyPage(
  () => import('../features/contact-lists/contact-list-items-page'),
  'ContactListItemsPage',
);
const ContactListsPage = lazyPage(
  () => import('../features/contact-lists/contact-lists-page'),
  'ContactListsPage',
);
const ContactsPage = lazyPage(() => import('../features/contacts/contacts-page'), 'ContactsPage');
const DashboardPage = lazyPage(
  () => import('../features/dashboard/dashboard-page'),
  'DashboardPage',
);
const FilesPage = lazyPage(() => import('../features/files/files-page'), 'FilesPage');
const HelpsPage = lazyPage(() => import('../features/helps/helps-page'), 'HelpsPage');
const KanbanPage = lazyPage(() => import('../features/kanban/kanban-page'), 'KanbanPage');
const KnowledgePage = lazyPage(
  () => import('../features/knowledge/knowledge-page'),
  'KnowledgePage',
);
const MessagesApiPage = lazyPage(
  () => import('../features/messages-api/messages-api-page'),
  'MessagesApiPage',
);
const PromptsPage = lazyPage(() => import('../features/prompts/prompts-page'), 'PromptsPage');
const QueueIntegrationsPage = lazyPage(
  () => import('../features/queue-integrations/queue-integrations-page'),
  'QueueIntegrationsPage',
);
const QueuesPage = lazyPage(() => import('../features/queues/queues-page'), 'QueuesPage');
const QuickMessagesPage = lazyPage(
  () => import('../features/quick-messages/quick-messages-page'),
  'QuickMessagesPage',
);
const SchedulesPage = lazyPage(
  () => import('../features/schedules/schedules-page'),
  'SchedulesPage',
);
const SettingsPage = lazyPage(() => import('../features/settings/settings-page'), 'SettingsPage');
const PaymentCancelPage = lazyPage(
  () => import('../features/subscriptions/payment-result-pages'),
  'PaymentCancelPage',
);
const PaymentSuccessPage = lazyPage(
  () => import('../features/subscriptions/payment-result-pages'),
  'PaymentSuccessPage',
);
const RestrictedAccessPage = lazyPage(
  () => import('../features/subscriptions/restricted-access-page'),
  'RestrictedAccessPage',
);
const SubscribePage = lazyPage(
  () => import('../features/subscriptions/subscribe-page'),
  'SubscribePage',
);
const SubscriptionsPage = lazyPage(
  () => import('../features/subscriptions/subscriptions-page'),
  'SubscriptionsPage',
);
const TagsPage = lazyPage(() => import('../features/tags/tags-page'), 'TagsPage');
const TodoListPage = lazyPage(() => import('../features/todolist/todolist-page'), 'TodoListPage');
const UsersPage = lazyPage(() => import('../features/users/users-page'), 'UsersPage');

// SPEC §2 route table.
export const AppRoutes = () => {
  // Read on every navigation: the cshow flag can appear after login.
  useLocation();
  const withCampaigns = hasCampaignFlag();

  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/forgetpsw" element={<ForgetPasswordPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route element={<CompanyStatusGate />}>
            <Route index element={<DashboardPage />} />
            <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
            <Route path="/connections" element={<ConnectionsPage />} />
            <Route path="/quick-messages" element={<QuickMessagesPage />} />
            <Route path="/todolist" element={<TodoListPage />} />
            <Route
              path="/schedules"
              element={
                <PlanFeatureRoute feature="useSchedules">
                  <SchedulesPage />
                </PlanFeatureRoute>
              }
            />
            <Route path="/tags" element={<TagsPage />} />
            <Route path="/contacts" element={<ContactsPage />} />
            <Route path="/helps" element={<HelpsPage />} />
            <Route path="/users" element={<UsersPage />} />
            <Route path="/files" element={<FilesPage />} />
            <Route
              path="/prompts"
              element={
                <PlanFeatureRoute feature="useOpenAi">
                  <PromptsPage />
                </PlanFeatureRoute>
              }
            />
            <Route
              path="/knowledge"
              element={
                <PlanFeatureRoute feature="useOpenAi">
                  <KnowledgePage />
                </PlanFeatureRoute>
              }
            />
            <Route
              path="/queue-integration"
              element={
                <PlanFeatureRoute feature="useIntegrations">
                  <QueueIntegrationsPage />
                </PlanFeatureRoute>
              }
            />
            <Route
              path="/messages-api"
              element={
                <PlanFeatureRoute feature="useExternalApi">
                  <MessagesApiPage />
                </PlanFeatureRoute>
              }
            />
            <Route path="/settings" element={<SettingsPage />} />
            <Route
              path="/kanban"
              element={
                <PlanFeatureRoute feature="useKanban">
                  <KanbanPage />
                </PlanFeatureRoute>
              }
            />
            <Route path="/queues" element={<QueuesPage />} />
            <Route
              path="/announcements"
              element={
                <SuperUserRoute>
                  <AnnouncementsPage />
                </SuperUserRoute>
              }
            />
            <Route path="/subscriptions" element={<SubscriptionsPage />} />
            <Route path="/subscribe" element={<SubscribePage />} />
            <Route path="/restricted-access" element={<RestrictedAccessPage />} />
            <Route path="/success" element={<PaymentSuccessPage />} />
            <Route path="/cancel" element={<PaymentCancelPage />} />
            {withCampaigns && (
              <>
                <Route
                  path="/contact-lists"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <ContactListsPage />
                    </PlanFeatureRoute>
                  }
                />
                <Route
                  path="/contact-lists/:contactListId/contacts"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <ContactListItemsPage />
                    </PlanFeatureRoute>
                  }
                />
                <Route
                  path="/campaigns"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <CampaignsPage />
                    </PlanFeatureRoute>
                  }
                />
                <Route
                  path="/campaign/:campaignId/report"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <CampaignReportPage />
                    </PlanFeatureRoute>
                  }
                />
                <Route
                  path="/campaigns-config"
                  element={
                    <PlanFeatureRoute feature="useCampaigns">
                      <CampaignsConfigPage />
                    </PlanFeatureRoute>
                  }
                />
              </>
            )}
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Route>
      </Route>
    </Routes>
  );
};
