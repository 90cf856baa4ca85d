ALTER TABLE "contact_list_items" ALTER COLUMN "is_whatsapp_valid" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "contact_list_items" ALTER COLUMN "is_whatsapp_valid" DROP NOT NULL;