import { z } from 'zod';
import { phoneCountries } from './phone-countries';

// SPEC §3 Setting keys and §9 options, with the value a new company starts with.
export const settingDefaults = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  call: 'disabled',
  CheckMsgIsGroup: 'enabled',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'disabled',
  chatBotType: 'text',
  userCreation: 'enabled',
  initialSideMenu: 'open',
  campaignsEnabled: 'false',
  asaas: '',
  // Two-factor sign-in for every user of the company (issue 37), and (the platform's, super users
  // only) for every super user.
  twoFactor: 'optional',
  superTwoFactor: 'optional',
  // SPEC's rule: a new login of an account ends its other sessions ('enabled'); 'device' ends only
  // the earlier session of the same browser, so a user keeps one session per device (the desktop and
  // the installed app at once); 'disabled' ends none. Each session is listed in the user's sessions.
  singleSession: 'enabled',
  // Issue 39: the contact's WhatsApp shows their messages read when an agent opens the chat, and
  // "typing…" while an agent writes to them.
  readReceipts: 'enabled',
  typingToContact: 'enabled',
  // Issue 40: the AI reads every live conversation's sentiment and data (modules/insight; only with a
  // plan with AI and a provider, and it spends the company's AI tokens).
  liveInsight: 'disabled',
  // Issue 40: every voice note (the contact's and the company's) gets a written transcript through
  // the company's AI provider, shown under the audio and found by the tickets' search. Only where
  // the plan has AI and a provider is set; it spends the company's AI tokens.
  transcribeAudio: 'disabled',
  // Issue 40: a conversation handed from an AI agent to people, or transferred to another agent or
  // queue, gets a short summary as a note (when the plan has AI and a provider is set).
  aiSummaries: 'enabled',
  // The company's country (ISO 3166-1 alpha-2): a number typed without its country code is read as
  // a local number of it. '': none, and such a number is refused.
  country: '',
} as const;

export type SettingKey = keyof typeof settingDefaults;
export const settingKeys = Object.keys(settingDefaults) as SettingKey[];

const onOff = ['enabled', 'disabled'] as const;

// Allowed values per key; null means free text.
export const settingOptions: Record<SettingKey, readonly string[] | null> = {
  userRating: onOff,
  scheduleType: ['disabled', 'queue', 'company'],
  call: onOff,
  CheckMsgIsGroup: onOff,
  sendGreetingAccepted: onOff,
  sendMsgTransfTicket: onOff,
  sendGreetingMessageOneQueues: onOff,
  chatBotType: ['text'],
  userCreation: onOff,
  initialSideMenu: ['open', 'closed'],
  campaignsEnabled: ['true', 'false'],
  asaas: null,
  twoFactor: ['optional', 'required'],
  superTwoFactor: ['optional', 'required'],
  singleSession: ['enabled', 'device', 'disabled'],
  readReceipts: onOff,
  typingToContact: onOff,
  liveInsight: onOff,
  transcribeAudio: onOff,
  aiSummaries: onOff,
  country: ['', ...phoneCountries],
};

// What a new login does to the user's other sessions (`singleSession`).
export type SessionPolicy = 'enabled' | 'device' | 'disabled';

// Keys that only a super user may change (platform-wide payment configuration).
export const superOnlySettingKeys: readonly SettingKey[] = ['asaas', 'superTwoFactor'];

// Keys company staff may read but only a super user may change: campaignsEnabled belongs to the
// company form (SPEC §3), and sign-up pins it to false.
export const superManagedSettingKeys: readonly SettingKey[] = [
  ...superOnlySettingKeys,
  'campaignsEnabled',
];

// GET /settings, PUT /settings/{key} and the session's company settings.
export const settingViewSchema = z.object({ key: z.string(), value: z.string() });
export type SettingView = z.input<typeof settingViewSchema>;
