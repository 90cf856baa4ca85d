import { can } from '@atendi/shared';
import type { SvgIconComponent } from '@mui/icons-material';
import AccountTreeIcon from '@mui/icons-material/AccountTreeOutlined';
import AnnouncementIcon from '@mui/icons-material/AnnouncementOutlined';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CampaignIcon from '@mui/icons-material/CampaignOutlined';
import CodeIcon from '@mui/icons-material/Code';
import ContactsIcon from '@mui/icons-material/ContactsOutlined';
import DashboardIcon from '@mui/icons-material/DashboardOutlined';
import EventIcon from '@mui/icons-material/EventOutlined';
import FlashOnIcon from '@mui/icons-material/FlashOnOutlined';
import ForumIcon from '@mui/icons-material/ForumOutlined';
import HelpIcon from '@mui/icons-material/HelpOutlined';
import HubIcon from '@mui/icons-material/HubOutlined';
import ListAltIcon from '@mui/icons-material/ListAlt';
import LocalOfferIcon from '@mui/icons-material/LocalOfferOutlined';
import MenuBookIcon from '@mui/icons-material/MenuBookOutlined';
import PaidIcon from '@mui/icons-material/PaidOutlined';
import PeopleIcon from '@mui/icons-material/PeopleAltOutlined';
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import PsychologyIcon from '@mui/icons-material/PsychologyOutlined';
import SettingsIcon from '@mui/icons-material/SettingsOutlined';
import SyncAltIcon from '@mui/icons-material/SyncAlt';
import TuneIcon from '@mui/icons-material/Tune';
import ViewKanbanIcon from '@mui/icons-material/ViewKanbanOutlined';
import type { CompanySetting, SessionUser } from '../../api/session';

export type MenuLink = {
  kind: 'link';
  id: string;
  to: string;
  labelKey: string;
  icon: SvgIconComponent;
};
export type MenuGroup = {
  kind: 'group';
  id: string;
  labelKey: string;
  icon: SvgIconComponent;
  children: MenuLink[];
};
export type MenuEntry = MenuLink | MenuGroup;
export type MenuSection = { id: 'main' | 'admin'; headingKey?: string; entries: MenuEntry[] };

type MenuInput = {
  user: SessionUser;
  // GET /settings/ when the user may read it, else the company settings from the session.
  settings: CompanySetting[];
  hasCampaignFlag: boolean;
};

const link = (id: string, to: string, labelKey: string, icon: SvgIconComponent): MenuLink => ({
  kind: 'link',
  id,
  to,
  labelKey,
  icon,
});

const settingValue = (settings: CompanySetting[], key: string) =>
  settings.find((setting) => setting.key === key)?.value;

// SPEC §2 route table and §6: which drawer entries a user sees.
export const buildMenu = ({ user, settings, hasCampaignFlag }: MenuInput): MenuSection[] => {
  const plan = user.company?.plan;
  const isAdmin = can(user, 'drawer-admin-items:view');

  const main: MenuEntry[] = [
    link('tickets', '/tickets', 'menu.tickets', ForumIcon),
    link('quick-messages', '/quick-messages', 'menu.quickMessages', FlashOnIcon),
    ...(plan?.useKanban ? [link('kanban', '/kanban', 'menu.kanban', ViewKanbanIcon)] : []),
    link('contacts', '/contacts', 'menu.contacts', ContactsIcon),
    ...(plan?.useSchedules ? [link('schedules', '/schedules', 'menu.schedules', EventIcon)] : []),
    link('tags', '/tags', 'menu.tags', LocalOfferIcon),
    link('todolist', '/todolist', 'menu.todolist', PlaylistAddCheckIcon),
    link('helps', '/helps', 'menu.helps', HelpIcon),
  ];
  if (!isAdmin) return [{ id: 'main', entries: main }];

  const showCampaigns =
    Boolean(plan?.useCampaigns) ||
    settingValue(settings, 'campaignsEnabled') === 'true' ||
    hasCampaignFlag;

  const admin: MenuEntry[] = [
    link('dashboard', '/', 'menu.dashboard', DashboardIcon),
    ...(showCampaigns
      ? [
          {
            kind: 'group' as const,
            id: 'campaigns',
            labelKey: 'menu.campaigns',
            icon: CampaignIcon,
            children: [
              link('campaigns-list', '/campaigns', 'menu.campaignsList', ListAltIcon),
              link('contact-lists', '/contact-lists', 'menu.contactLists', PeopleIcon),
              link('campaigns-config', '/campaigns-config', 'menu.campaignsConfig', TuneIcon),
            ],
          },
        ]
      : []),
    ...(user.super
      ? [link('announcements', '/announcements', 'menu.announcements', AnnouncementIcon)]
      : []),
    ...(plan?.useExternalApi
      ? [link('messages-api', '/messages-api', 'menu.messagesApi', CodeIcon)]
      : []),
    link('connections', '/connections', 'menu.connections', SyncAltIcon),
    link('files', '/files', 'menu.files', AttachFileIcon),
    link('queues', '/queues', 'menu.queues', AccountTreeIcon),
    link('users', '/users', 'menu.users', PeopleIcon),
    ...(plan?.useOpenAi
      ? [
          link('prompts', '/prompts', 'menu.prompts', PsychologyIcon),
          link('knowledge', '/knowledge', 'menu.knowledge', MenuBookIcon),
        ]
      : []),
    ...(plan?.useIntegrations
      ? [link('integrations', '/queue-integration', 'menu.integrations', HubIcon)]
      : []),
    link('financial', '/subscriptions', 'menu.financial', PaidIcon),
    link('settings', '/settings', 'menu.settings', SettingsIcon),
  ];

  return [
    { id: 'main', entries: main },
    { id: 'admin', headingKey: 'menu.administration', entries: admin },
  ];
};
