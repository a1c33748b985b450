let t = performance.now();
const { Faker, base, de, en } = await import('@faker-js/faker');
console.log('import faker', Math.round(performance.now() - t)); t = performance.now();
const { Temporal } = await import('@js-temporal/polyfill');
console.log('import temporal', Math.round(performance.now() - t)); t = performance.now();
const f = new Faker({ locale: [de, en, base] }); f.seed(1);
console.log('faker new', Math.round(performance.now() - t)); t = performance.now();
for (let i = 0; i < 200; i++) { f.person.firstName(); f.person.lastName(); f.location.street(); }
console.log('faker 200 people', Math.round(performance.now() - t)); t = performance.now();
const d = Temporal.Instant.fromEpochMilliseconds(Date.now()).toZonedDateTimeISO('Europe/Berlin').toPlainDate();
for (let i = 0; i < 200; i++) d.add({ days: i }).toZonedDateTime({ timeZone: 'Europe/Berlin', plainTime: new Temporal.PlainTime(12) }).offsetNanoseconds;
console.log('temporal 200', Math.round(performance.now() - t)); t = performance.now();
const { generateDemoData } = await import('../server/db/seed/generate');
console.log('import gen', Math.round(performance.now() - t)); t = performance.now();
generateDemoData();
console.log('gen1', Math.round(performance.now() - t)); t = performance.now();
generateDemoData();
console.log('gen2', Math.round(performance.now() - t)); t = performance.now();
