import { eq, sql, type SQL } from 'drizzle-orm';
import { settingDefaults } from '@atendi/shared';
import type { Db } from '../../db/client';
import { companies, plans, settings } from '../../db/schema';

// The company's plan has AI.
export const planAllowsAi = async (db: Db, companyId: number) => {
  const [row] = await db
    .select({ useOpenAi: plans.useOpenAi })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, companyId));
  return Boolean(row?.useOpenAi);
};

// The AI work a company turns on for itself, done in the background (issue 40): live insight, voice
// notes written down, hand-over summaries.
type AiFeature = 'liveInsight' | 'transcribeAudio' | 'aiSummaries';

// The company (its id, an SQL expression) has the feature on (its setting, or the setting's default
// while it has none) and a plan with AI: for the statements that queue the feature's jobs.
export const usesAiFeatureSql = (companyId: SQL, feature: AiFeature) =>
  sql`coalesce((select s.value from ${settings} s
      where s.company_id = ${companyId} and s.key = ${feature}), ${settingDefaults[feature]}) = 'enabled'
    and exists (select 1 from ${companies} c join ${plans} p on p.id = c.plan_id
      where c.id = ${companyId} and p.use_open_ai)`;

// The same, read when a job runs: the setting or the plan may have changed since it was queued.
export const usesAiFeature = async (db: Db, companyId: number, feature: AiFeature) => {
  const [row] = await db
    .select({ yes: sql<boolean>`${usesAiFeatureSql(sql`${companyId}::int`, feature)}` })
    .from(companies)
    .where(eq(companies.id, companyId));
  return Boolean(row?.yes);
};
