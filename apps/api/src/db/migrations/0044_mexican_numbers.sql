-- Mexican numbers are stored as WhatsApp now addresses them, 52 and the 10 digits (packages/shared
-- phone.ts, whatsappNumber), the form every number WhatsApp reports with the old mobile '1' now takes.
-- Rows stored as 52 1 and the 10 digits move to it, so the person's next message finds their contact,
-- their campaign lists and their opt-out; a row whose new form is already taken keeps the old one.
UPDATE "contacts" AS c SET "number" = '52' || substr(c."number", 4)
WHERE c."number" ~ '^521[0-9]{10}$'
  AND NOT EXISTS (
    SELECT 1 FROM "contacts" AS o
    WHERE o."company_id" = c."company_id" AND o."number" = '52' || substr(c."number", 4)
  );
--> statement-breakpoint
UPDATE "contact_list_items" AS c SET "number" = '52' || substr(c."number", 4)
WHERE c."number" ~ '^521[0-9]{10}$'
  AND NOT EXISTS (
    SELECT 1 FROM "contact_list_items" AS o
    WHERE o."contact_list_id" = c."contact_list_id" AND o."number" = '52' || substr(c."number", 4)
  );
--> statement-breakpoint
UPDATE "campaign_shipping" AS c SET "number" = '52' || substr(c."number", 4)
WHERE c."number" ~ '^521[0-9]{10}$'
  AND NOT EXISTS (
    SELECT 1 FROM "campaign_shipping" AS o
    WHERE o."campaign_id" = c."campaign_id" AND o."number" = '52' || substr(c."number", 4)
  );
--> statement-breakpoint
UPDATE "campaign_opt_outs" AS c SET "number" = '52' || substr(c."number", 4)
WHERE c."number" ~ '^521[0-9]{10}$'
  AND NOT EXISTS (
    SELECT 1 FROM "campaign_opt_outs" AS o
    WHERE o."company_id" = c."company_id" AND o."number" = '52' || substr(c."number", 4)
  );
