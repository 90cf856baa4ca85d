DROP TABLE "message_outbox" CASCADE;--> statement-breakpoint
DROP TABLE "webhook_events" CASCADE;