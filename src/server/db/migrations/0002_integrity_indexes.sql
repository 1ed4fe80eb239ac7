DROP INDEX "maintenance_tasks_nextdue_idx";--> statement-breakpoint
ALTER TABLE "tombstones" DROP CONSTRAINT "tombstones_kind_nodeid_pk";--> statement-breakpoint
ALTER TABLE "tombstones" ADD CONSTRAINT "tombstones_legalentitynodeid_kind_nodeid_pk" PRIMARY KEY("legalentitynodeid","kind","nodeid");--> statement-breakpoint
ALTER TABLE "profiles" ADD CONSTRAINT "profiles_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_le_fk" FOREIGN KEY ("legalentitynodeid") REFERENCES "public"."legal_entities"("nodeid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refresh_tokens_user_idx" ON "refresh_tokens" USING btree ("usernodeid");--> statement-breakpoint
CREATE INDEX "refresh_tokens_expires_idx" ON "refresh_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sync_clients_user_idx" ON "sync_clients" USING btree ("usernodeid");--> statement-breakpoint
CREATE INDEX "areas_shiftmodel_idx" ON "areas" USING btree ("shiftmodelnodeid");--> statement-breakpoint
CREATE INDEX "equipment_shiftmodel_idx" ON "equipment" USING btree ("shiftmodelnodeid");--> statement-breakpoint
CREATE INDEX "structure_subscriptions_site_idx" ON "structure_subscriptions" USING btree ("sitenodeid") WHERE "structure_subscriptions"."sitenodeid" is not null;--> statement-breakpoint
CREATE INDEX "structure_subscriptions_area_idx" ON "structure_subscriptions" USING btree ("areanodeid") WHERE "structure_subscriptions"."areanodeid" is not null;--> statement-breakpoint
CREATE INDEX "structure_subscriptions_pool_idx" ON "structure_subscriptions" USING btree ("equipmentpoolnodeid") WHERE "structure_subscriptions"."equipmentpoolnodeid" is not null;--> statement-breakpoint
CREATE INDEX "maintenance_tasks_nextdue_idx" ON "maintenance_tasks" USING btree ("legalentitynodeid","nextdueat") WHERE "maintenance_tasks"."nextdueat" is not null;