ALTER TABLE "campaign_shipping" ADD COLUMN "opted_out_at" timestamp with time zone;--> statement-breakpoint
-- Opt-outs recorded before: the campaign each one names counts its recipient as opted out.
UPDATE "campaign_shipping" s SET "opted_out_at" = o."created_at"
FROM "campaign_opt_outs" o
WHERE o."campaign_id" = s."campaign_id" AND o."company_id" = s."company_id" AND o."number" = s."number";
