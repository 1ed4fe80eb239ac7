import { simplePdf } from '../demo-files';
import { KINDS, brandByKey } from './catalog';
import { DAY_MS, type DemoContext } from './context';
import { type Organisation, personByKey } from './build-organisation';
import type { Structure } from './build-structure';
import { FAQS_BY_KIND, FAQS_BY_TYPE, MACHINE_DOCUMENTS } from './maintenance-texts';

/** The documentation tab's files per machine and the FAQs per machine and per equipment type. */
export function buildDocumentation(ctx: DemoContext, organisation: Organisation, structure: Structure): void {
  const { tables, random } = ctx;
  const admin = personByKey(organisation.people, 'admin');
  const authors = organisation.people.filter((p) => p.active && p.profileid !== 'reader');

  for (const machine of structure.machines) {
    const brand = brandByKey(machine.type.brand);
    const fill = (text: string) => text.replace('{model}', `${brand.name} ${machine.type.model}`).replace('{name}', machine.spec.name);
    const machining = machine.kind === 'millingCenter' || machine.kind === 'lathe' || KINDS[machine.kind].classKey === 'sheetMetal';
    const documents = MACHINE_DOCUMENTS.filter((doc) => {
      if (doc.category === 'setup') return machining;
      if (doc.category === 'internalinstructions') return random.chance(0.5);
      return true;
    });
    for (const doc of documents) {
      const at = new Date(ctx.setupAt.getTime() + random.int(1, 60) * DAY_MS);
      const title = fill(doc.title);
      const filenodeid = ctx.addFile({
        bytes: simplePdf(title, [`Anlage: ${machine.spec.name}`, `Hersteller: ${brand.name}, Typ ${machine.type.model}`, '', ...doc.lines]),
        mimetype: 'application/pdf',
        extension: 'pdf',
        createdAt: at,
        createdBy: admin.nodeid,
      });
      tables.attachments.push({ ...ctx.row(at), title, description: doc.description, specifier: doc.category, filenodeid, isattachmentof: machine.nodeid, targetkind: 'equipment', authornodeid: admin.nodeid });
    }

    const faqs = FAQS_BY_KIND[machine.kind] ?? [];
    for (const faq of random.sample(faqs, random.int(1, faqs.length))) {
      const at = new Date(ctx.setupAt.getTime() + random.int(5, 300) * DAY_MS);
      tables.faqs.push({ ...ctx.row(at), question: faq.question, answer: faq.answer, specifier: 'internalfaq', equipmentnodeid: machine.nodeid, authornodeid: random.pick(authors).nodeid });
    }
  }

  for (const [typeKey, faqs] of Object.entries(FAQS_BY_TYPE)) {
    for (const faq of faqs) {
      tables.faqs.push({ ...ctx.row(), question: faq.question, answer: faq.answer, specifier: 'equipmenttypefaq', equipmenttypenodeid: structure.typeIds.get(typeKey)!, authornodeid: admin.nodeid });
    }
  }
}
