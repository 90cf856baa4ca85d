ALTER TABLE "queues" ADD COLUMN "out_of_hours_queue_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD COLUMN "out_of_hours_prompt_id" integer;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_out_of_hours_queue_id_queues_id_fk" FOREIGN KEY ("out_of_hours_queue_id") REFERENCES "public"."queues"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queues" ADD CONSTRAINT "queues_out_of_hours_prompt_id_prompts_id_fk" FOREIGN KEY ("out_of_hours_prompt_id") REFERENCES "public"."prompts"("id") ON DELETE set null ON UPDATE no action;