CREATE TABLE "sla_outcomes" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ticket_id" integer NOT NULL,
	"queue_id" integer,
	"user_id" integer,
	"kind" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"met" boolean NOT NULL,
	"decided_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_first_response_minutes" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_next_response_minutes" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_resolution_minutes" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "sla_warning_minutes" integer DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_answered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_next_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolve_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_first_breached" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_next_breached" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_resolve_breached" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_warned_due" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "sla_due_at" timestamp with time zone GENERATED ALWAYS AS (least(sla_first_due_at, sla_next_due_at, sla_resolve_due_at)) STORED;--> statement-breakpoint
ALTER TABLE "sla_outcomes" ADD CONSTRAINT "sla_outcomes_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_outcomes" ADD CONSTRAINT "sla_outcomes_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_outcomes" ADD CONSTRAINT "sla_outcomes_queue_id_queues_id_fk" FOREIGN KEY ("queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sla_outcomes" ADD CONSTRAINT "sla_outcomes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sla_outcomes_company_id_decided_at_index" ON "sla_outcomes" USING btree ("company_id","decided_at");--> statement-breakpoint
CREATE INDEX "sla_outcomes_ticket_id_index" ON "sla_outcomes" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "tickets_sla_due_idx" ON "tickets" USING btree ("sla_due_at") WHERE sla_due_at is not null;--> statement-breakpoint
CREATE INDEX "tickets_sla_list_idx" ON "tickets" USING btree ("company_id","status","sla_due_at") WHERE sla_due_at is not null;