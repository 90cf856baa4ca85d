ALTER TABLE "integration_deliveries" ADD COLUMN "replies" jsonb;--> statement-breakpoint
ALTER TABLE "prompts" ADD COLUMN "handoff_message" text DEFAULT 'Le paso con una persona del equipo' NOT NULL;--> statement-breakpoint
ALTER TABLE "ticket_notes" ADD COLUMN "bot_name" text;