CREATE TABLE "node_ids" (
	"nodeid" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL
);
--> statement-breakpoint
-- One nodeid, one record: a trigger on each record table claims the id in node_ids (its table's name as the kind).
-- The same table again (a row deleted and made again under its id, another tenant's seed rows of one kind) passes;
-- that table's own primary key decides. Another table's id is a unique violation on node_ids_pkey.
CREATE FUNCTION claim_nodeid() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  holder text;
BEGIN
  INSERT INTO node_ids (nodeid, kind) VALUES (NEW.nodeid, TG_TABLE_NAME) ON CONFLICT (nodeid) DO NOTHING;
  IF NOT FOUND THEN
    SELECT kind INTO holder FROM node_ids WHERE nodeid = NEW.nodeid;
    IF holder IS DISTINCT FROM TG_TABLE_NAME THEN
      RAISE EXCEPTION 'nodeid % is held by another kind of record', NEW.nodeid
        USING ERRCODE = 'unique_violation', CONSTRAINT = 'node_ids_pkey';
    END IF;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'legal_entities' FROM "legal_entities" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'users' FROM "users" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'sites' FROM "sites" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'shift_models' FROM "shift_models" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'shifts' FROM "shifts" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'areas' FROM "areas" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'equipment_pools' FROM "equipment_pools" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'brands' FROM "brands" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'equipment_types' FROM "equipment_types" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'equipment_classes' FROM "equipment_classes" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'files' FROM "files" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'equipment' FROM "equipment" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'counter_types' FROM "counter_types" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'counters' FROM "counters" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'counter_readings' FROM "counter_readings" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'maintenance_categories' FROM "maintenance_categories" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'maintenance_tasks' FROM "maintenance_tasks" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'maintenance_task_templates' FROM "maintenance_task_templates" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'notifications' FROM "notifications" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'notification_assignments' FROM "notification_assignments" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'reports' FROM "reports" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'workflows' FROM "workflows" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'workflow_steps' FROM "workflow_steps" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'faqs' FROM "faqs" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'cost_types' FROM "cost_types" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'costs' FROM "costs" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'attachments' FROM "attachments" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'chat_rooms' FROM "chat_rooms" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
INSERT INTO "node_ids" ("nodeid", "kind") SELECT "nodeid", 'chat_messages' FROM "chat_messages" ON CONFLICT ("nodeid") DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER "legal_entities_claim_nodeid" BEFORE INSERT ON "legal_entities" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "users_claim_nodeid" BEFORE INSERT ON "users" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "sites_claim_nodeid" BEFORE INSERT ON "sites" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "shift_models_claim_nodeid" BEFORE INSERT ON "shift_models" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "shifts_claim_nodeid" BEFORE INSERT ON "shifts" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "areas_claim_nodeid" BEFORE INSERT ON "areas" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "equipment_pools_claim_nodeid" BEFORE INSERT ON "equipment_pools" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "brands_claim_nodeid" BEFORE INSERT ON "brands" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "equipment_types_claim_nodeid" BEFORE INSERT ON "equipment_types" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "equipment_classes_claim_nodeid" BEFORE INSERT ON "equipment_classes" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "files_claim_nodeid" BEFORE INSERT ON "files" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "equipment_claim_nodeid" BEFORE INSERT ON "equipment" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "counter_types_claim_nodeid" BEFORE INSERT ON "counter_types" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "counters_claim_nodeid" BEFORE INSERT ON "counters" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "counter_readings_claim_nodeid" BEFORE INSERT ON "counter_readings" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "maintenance_categories_claim_nodeid" BEFORE INSERT ON "maintenance_categories" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "maintenance_tasks_claim_nodeid" BEFORE INSERT ON "maintenance_tasks" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "maintenance_task_templates_claim_nodeid" BEFORE INSERT ON "maintenance_task_templates" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "notifications_claim_nodeid" BEFORE INSERT ON "notifications" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "notification_assignments_claim_nodeid" BEFORE INSERT ON "notification_assignments" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "reports_claim_nodeid" BEFORE INSERT ON "reports" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "workflows_claim_nodeid" BEFORE INSERT ON "workflows" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "workflow_steps_claim_nodeid" BEFORE INSERT ON "workflow_steps" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "faqs_claim_nodeid" BEFORE INSERT ON "faqs" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "cost_types_claim_nodeid" BEFORE INSERT ON "cost_types" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "costs_claim_nodeid" BEFORE INSERT ON "costs" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "attachments_claim_nodeid" BEFORE INSERT ON "attachments" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "chat_rooms_claim_nodeid" BEFORE INSERT ON "chat_rooms" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
--> statement-breakpoint
CREATE TRIGGER "chat_messages_claim_nodeid" BEFORE INSERT ON "chat_messages" FOR EACH ROW EXECUTE FUNCTION claim_nodeid();
