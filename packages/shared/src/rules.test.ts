import { describe, expect, it } from 'vitest';
import {
  connectionStatuses,
  defaultSchedules,
  effectiveCompanyStatus,
  isWithinLimit,
} from './constants';
import { can } from './permissions';
import {
  companyCreateSchema,
  queueSchema,
  resetPasswordParams,
  signupSchema,
  whatsappSessionSchema,
} from './schemas';
import { needsAttention, sessionActions } from './whatsapp';

describe('permissions', () => {
  it('gives admins the admin keys and plain users none of them', () => {
    expect(can({ profile: 'admin' }, 'ticket-options:deleteTicket')).toBe(true);
    expect(can({ profile: 'user' }, 'ticket-options:deleteTicket')).toBe(false);
    expect(can({ profile: 'user' }, 'contacts-page:deleteContact')).toBe(false);
  });

  it('lets supervisors toggle kanban tags but not manage users', () => {
    expect(can({ profile: 'supervisor' }, 'tag-form:kanban')).toBe(true);
    expect(can({ profile: 'supervisor' }, 'users:manage')).toBe(false);
  });

  it('gives super users every key whatever their profile', () => {
    expect(can({ profile: 'user', isSuper: true }, 'users:manage')).toBe(true);
    expect(can(null, 'users:manage')).toBe(false);
  });
});

describe('company status', () => {
  const now = new Date('2026-06-10T12:00:00Z');
  it('treats an active company past its due date as overdue', () => {
    expect(effectiveCompanyStatus({ status: 'active', dueDate: '2026-06-09T12:00:00Z' }, now)).toBe(
      'overdue',
    );
    expect(effectiveCompanyStatus({ status: 'active', dueDate: '2026-06-11T12:00:00Z' }, now)).toBe(
      'active',
    );
    expect(effectiveCompanyStatus({ status: 'active', dueDate: null }, now)).toBe('active');
  });
  it('keeps a status set by an operator', () => {
    expect(effectiveCompanyStatus({ status: 'suspended', dueDate: '2030-01-01' }, now)).toBe(
      'suspended',
    );
  });
});

describe('plan limits', () => {
  it('treats 0 as unlimited and stops at the limit otherwise', () => {
    expect(isWithinLimit(0, 500)).toBe(true);
    expect(isWithinLimit(2, 1)).toBe(true);
    expect(isWithinLimit(2, 2)).toBe(false);
  });
});

describe('default service hours', () => {
  it('opens Monday to Friday 08-18, Saturday 08-12 and closes Sunday', () => {
    const byDay = Object.fromEntries(
      defaultSchedules().map((s) => [s.weekdayEn, `${s.startTime}-${s.endTime}`]),
    );
    expect(byDay).toMatchObject({
      monday: '08:00-18:00',
      friday: '08:00-18:00',
      saturday: '08:00-12:00',
      sunday: '00:00-00:00',
    });
  });
});

describe('forms', () => {
  it('sign-up: name 2-50, valid email, the reset password rule, phone up to 12', () => {
    const ok = { name: 'Acme', email: 'A@B.io', password: 'Abcdefg1', phone: '551199999999' };
    expect(signupSchema.parse(ok).email).toBe('a@b.io');
    expect(signupSchema.safeParse({ ...ok, name: 'A' }).success).toBe(false);
    expect(signupSchema.safeParse({ ...ok, password: 'abcde' }).success).toBe(false);
    expect(signupSchema.safeParse({ ...ok, password: 'abcdefg1' }).success).toBe(false);
    expect(signupSchema.safeParse({ ...ok, phone: '5511999999999' }).success).toBe(false);
  });

  it('reset password needs 8+ characters with upper, lower and a digit', () => {
    const base = { email: 'a@b.io', token: '123456' };
    expect(resetPasswordParams.safeParse({ ...base, newPassword: 'Abcdefg1' }).success).toBe(true);
    expect(resetPasswordParams.safeParse({ ...base, newPassword: 'abcdefg1' }).success).toBe(false);
    expect(resetPasswordParams.safeParse({ ...base, newPassword: 'Abc1' }).success).toBe(false);
  });

  it('company: an empty or invalid due date becomes null', () => {
    const base = { name: 'Acme', email: 'a@b.io', planId: 1 };
    expect(companyCreateSchema.parse({ ...base, dueDate: '' }).dueDate).toBeNull();
    expect(companyCreateSchema.parse({ ...base, dueDate: 'not a date' }).dueDate).toBeNull();
    expect(companyCreateSchema.parse({ ...base, dueDate: '2026-12-01' }).dueDate).toBe(
      '2026-12-01T00:00:00.000Z',
    );
  });

  it('queue colour: only hex forms a browser can draw', () => {
    const ok = (color: string) => queueSchema.safeParse({ name: 'Ventas', color }).success;
    expect(['#abc', 'abcd', '#a1b2c3', '#a1b2c3d4'].every(ok)).toBe(true);
    expect(['#12345', '#1234567', 'red', '#ggg'].some(ok)).toBe(false);
  });
});

describe('connection status rules (SPEC §2 App shell, §4 Connection status)', () => {
  it('shows the buttons each status offers', () => {
    expect(sessionActions('qrcode')).toEqual(['showQr']);
    expect(sessionActions('DISCONNECTED')).toEqual(['tryAgain', 'newQr']);
    expect(sessionActions('OPENING')).toEqual(['connecting']);
    for (const status of ['CONNECTED', 'PAIRING', 'TIMEOUT'] as const)
      expect(sessionActions(status)).toEqual(['disconnect']);
  });

  it('flags every status but CONNECTED in the menu', () => {
    expect(connectionStatuses.filter(needsAttention)).toEqual([
      'qrcode',
      'PAIRING',
      'OPENING',
      'DISCONNECTED',
      'TIMEOUT',
    ]);
  });

  it('asks a pairing code for a full number only, and accepts an empty body', () => {
    expect(whatsappSessionSchema.safeParse({ phoneNumber: '+5491122223333' }).success).toBe(true);
    expect(whatsappSessionSchema.safeParse({ phoneNumber: '12345' }).success).toBe(false);
    expect(whatsappSessionSchema.safeParse(null).success).toBe(true);
  });
});
