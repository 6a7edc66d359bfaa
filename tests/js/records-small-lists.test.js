// dedup of records on short lists, where EM has few pairs to learn from (README "Records";
// js/records/): look-alike people a household, an employer or a phone joins are kept apart
// and listed with why; copies that differ where the list says copies differ are still found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sh } from './helpers.js';

test('names a typo apart whose e-mail or birthday differs outright, and no key agrees exactly: two people, listed with why', async () => {
  // A short list: EM learns from its few pairs that a match's birthday and e-mail often
  // differ, and a shared city and employer with phones a digit apart outweigh them.
  const person = (name, email, phone, birthday, city, company) => ({ name, email, phone, birthday, city, company });
  const rows = [
    person('John Smith', 'john.smith@gmail.com', '(555) 123-4567', '1980-03-05', 'Springfield', 'Acme Corp'),
    person('Smith John', 'johnsmith@gmail.com', '555.123.4567', '05/03/1980', 'Springfield', 'ACME Corporation'),
    person('Jon Smith', 'j.smith@acme.com', '+1 555 123 4567', '', 'Springfield', 'Acme'), // the same phone: him
    person('Jane Smith', 'jane.smith@gmail.com', '(555) 123-4568', '1982-07-19', 'Springfield', 'Acme Corp'),
    person('Robert Brown', 'bob.brown@yahoo.com', '212-555-0199', '1975-11-30', 'New York', 'Globex'),
    person('Bob Brown', 'bob.brown@yahoo.com', '', '1975-11-30', 'NYC', 'Globex Inc'),
    person('Roberta Brown', 'roberta.b@yahoo.com', '212-555-0198', '1979-01-02', 'New York', 'Globex'),
    person('Maria Garcia', 'maria.garcia@outlook.com', '+34 612 345 678', '1990-12-01', 'Madrid', 'Telefonica'),
    person('María García', 'mariagarcia@outlook.com', '612345678', '01/12/1990', 'Madrid', 'Telefónica'),
    person('Maria Garcia', 'maria.g@hotmail.com', '+34 699 111 222', '1988-04-04', 'Barcelona', 'Seat'),
    person('李伟', 'liwei@qq.com', '13800138000', '1985-06-06', '北京', '华为'),
    person('李伟', 'li.wei@163.com', '13900139000', '1991-09-09', '上海', '阿里巴巴'),
    person('李偉', 'liwei@qq.com', '138-0013-8000', '1985-06-06', '北京', '華為'),
    person('William Johnson', 'will.j@example.com', '555-987-6543', '1970-01-01', 'Boston', 'Initech'),
    person('Bill Johnson', 'will.j@example.com', '555 987 6543', '1970-01-01', 'Boston', 'Initech LLC'),
    person('William Johnston', 'wjohnston@example.com', '555-987-6544', '1971-01-01', 'Boston', 'Initrode'),
    person('Emily Chen', 'emily.chen@corp.com', '415-555-2000', '1992-02-02', 'San Francisco', 'Hooli'),
    person('Emily Chan', 'emily.chan@corp.com', '415-555-3000', '1993-03-03', 'San Francisco', 'Hooli'),
    person('Emily Chen', 'emily.chen+news@corp.com', '', '1992-02-02', 'SF', 'Hooli'),
  ];
  const result = await sh.dedup(rows);
  assert.deepEqual(result.groups, [[0, 1, 2], [4, 5], [7, 8], [10, 12], [13, 14]]);
  // A postcode a household shares is no key of a person: the same with one per city.
  const zips = { Springfield: '62701', 'New York': '10001', NYC: '10001', Boston: '02108', 'San Francisco': '94105', SF: '94105' };
  const zipped = await sh.dedup(rows.map((row) => ({ ...row, zip: zips[row.city] ?? '' })));
  assert.equal(zipped.fields.find((f) => f.name === 'zip').kind, 'exact');
  assert.deepEqual(zipped.groups.filter((group) => group.includes(4) || group.includes(13)), [[4, 5], [13, 14]]);
  const apart = (a, b) => result.review.find((e) => e.a === a && e.b === b)?.apart;
  assert.deepEqual(apart(4, 6), { field: 'name', differs: { words: [['Robert'], ['Roberta']] } });
  assert.deepEqual(apart(13, 15), { field: 'name', differs: { words: [['Johnson'], ['Johnston']] } });
  assert.deepEqual(apart(16, 17), { field: 'name', differs: { words: [['Chen'], ['Chan']] } });
});

test('a household: a date of birth that differs outright outweighs the phone and address it shares; a member kept apart from another is no member of its group', async () => {
  const person = (name, email, phone, address, dob) => ({ name, email, phone, address, dob });
  const rows = [
    person('John Smith Jr.', 'smithfamily@gmail.com', '555-201-3344', '14 Elm Street, Springfield', '1990-04-12'),
    person('John Smith Sr.', 'smithfamily@gmail.com', '555-201-3344', '14 Elm Street, Springfield', '1962-08-30'),
    person('John Smith', 'jsmith.jr@gmail.com', '(555) 201-3344', '14 Elm St, Springfield', '12/04/1990'),
    person('Mary Smith', 'smithfamily@gmail.com', '555-201-3344', '14 Elm Street, Springfield', '1964-02-11'),
    person('Marie Smith', 'marie.smith@yahoo.com', '555-201-9988', '9 Oak Avenue, Shelbyville', '1985-07-07'),
    person('Maria Smith', 'maria.s@outlook.com', '555-330-1212', '22 Pine Road, Capital City', '1979-11-23'),
    person('Alex Taylor', 'alex.taylor@gmail.com', '555-404-1000', '3 Birch Lane, Ogdenville', '1988-01-01'),
    person('Alexandra Taylor', 'alexandra.t@gmail.com', '555-404-1000', '3 Birch Lane, Ogdenville', '1991-05-05'),
    person('Alex Taylor', 'a.taylor@work.com', '555 404 1000', '3 Birch Ln, Ogdenville', ''),
    person('Chris Lee', 'chris.lee@gmail.com', '555-777-1234', '8 Cedar Court, North Haverbrook', '1975-03-03'),
    person('Christine Lee', 'christine.lee@gmail.com', '555-777-1234', '8 Cedar Court, North Haverbrook', '1977-09-09'),
    person('Christopher Lee', 'chris.lee@gmail.com', '', '8 Cedar Ct, North Haverbrook', '1975-03-03'),
    person('Sam Wilson', 'sam.wilson@gmail.com', '555-888-0000', '1 Maple Drive, Brockway', '2001-06-15'),
    person('Sam Wilson', 'sam.wilson@gmail.com', '555-888-0000', '1 Maple Drive, Brockway', '2001-06-15'),
    person('Samantha Wilson', 'samantha.w@gmail.com', '555-888-0000', '1 Maple Drive, Brockway', '2003-10-02'),
    person('Daniel Garcia', 'dgarcia@mail.com', '555-123-0001', '5 Palm Street, Cypress Creek', '1980-12-12'),
    person('Daniela Garcia', 'daniela.g@mail.com', '555-123-0001', '5 Palm Street, Cypress Creek', '1982-02-02'),
    person('Danny Garcia', 'dgarcia@mail.com', '555-123-0001', '5 Palm St, Cypress Creek', '1980-12-12'),
  ];
  const result = await sh.dedup(rows);
  // Alex without a birth date (8) matches Alex (6) and Alexandra (7), who are kept apart: she is not in their group.
  assert.deepEqual(result.groups, [[0, 2], [8, 6], [9, 11], [12, 13], [15, 17]]);
  const apart = (a, b) => result.review.find((e) => e.a === a && e.b === b)?.apart;
  assert.deepEqual(apart(0, 1), { field: 'name', differs: { words: [['Jr'], ['Sr']] } });
  assert.deepEqual(apart(6, 7), { field: 'name', differs: { words: [['Alex'], ['Alexandra']] } });
  assert.deepEqual(apart(15, 16), { field: 'name', differs: { words: [['Daniel'], ['Daniela']] } });
});

test('a list of one person\'s rows: a shared e-mail and phone still weigh, as among different people they are rare', async () => {
  // Its random pairs are its duplicates: counted as u, they would weigh both at under a bit, and group nothing.
  // Two neighbouring characters swapped, at a place that moves with i; every third row as written.
  const typo = (s, i, at = 1 + (i * 7) % (s.length - 2)) => (i % 3 === 0 ? s : s.slice(0, at) + s[at + 1] + s[at] + s.slice(at + 2));
  const rows = Array.from({ length: 20 }, (_, i) => ({
    name: typo('Jonathan Whitfield', i), email: i % 4 ? 'jon.whitfield@example.com' : 'jwhitfield@example.org',
    phone: i % 2 ? '(555) 123-4567' : '555.123.4567', city: typo('Springfield', i + 1),
  }));
  const result = await sh.dedup(rows);
  for (const name of ['email', 'phone']) {
    const exact = result.model.fields.find((f) => f.name === name).levels[0];
    assert.ok(exact.u <= 0.01 && exact.weight >= 5, `${name}: ${JSON.stringify(exact)}`);
  }
  assert.ok(result.groups.flat().length >= 10, `grouped: ${JSON.stringify(result.groups)}`);
});

test('copies whose e-mail and sign-up date differ, sharing a phone and a name a typo apart: listed, EM not collapsed by the priors against them', async () => {
  // The priors weigh a different e-mail and date 4 bits against each: from them alone, EM
  // would find no match among the phones' pairs and never learn that these copies differ there.
  const first = ['James', 'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Lucas', 'Mia', 'Ethan', 'Sophia', 'Mason', 'Isabella', 'Logan', 'Amelia', 'Jacob', 'Harper', 'Elijah', 'Evelyn', 'Henry', 'Ella'];
  const last = ['Walker', 'Hughes', 'Foster', 'Bennett', 'Reyes', 'Coleman', 'Jenkins', 'Perry', 'Powell', 'Long', 'Patterson', 'Flores', 'Washington', 'Butler', 'Simmons', 'Barnes', 'Henderson', 'Fisher', 'Graham', 'Sullivan'];
  const swapped = (s, at) => s.slice(0, at) + s[at + 1] + s[at] + s.slice(at + 2); // two letters of the surname
  const rows = [];
  const copies = [];
  for (let i = 0; i < 20; i++) {
    const [given, surname] = [first[i], last[i]];
    const phone = `555-${100 + i}-${1000 + i * 37}`;
    rows.push({ name: `${given} ${surname}`, email: `${given}.${surname}@gmail.com`.toLowerCase(), phone, signup: `20${19 + (i % 5)}-0${1 + (i % 9)}-1${i % 10}` });
    if (i % 2) continue;
    copies.push([rows.length - 1, rows.length]);
    rows.push({ name: `${given} ${swapped(surname, 1 + (i % (surname.length - 2)))}`, email: `${given[0]}${surname}@work.com`.toLowerCase(), phone, signup: `20${20 + (i % 4)}-1${i % 3}-0${1 + (i % 9)}` });
  }
  const result = await sh.dedup(rows);
  assert.deepEqual(result.fields.map((f) => f.kind), ['name', 'email', 'phone', 'date']);
  const listed = copies.filter(([a, b]) => result.review.some((e) => e.a === a && e.b === b) || result.groups.some((g) => g.includes(a) && g.includes(b)));
  assert.equal(listed.length, copies.length, `${JSON.stringify(copies)} against ${JSON.stringify(result.review.map((e) => [e.a, e.b]))}`);
  assert.deepEqual(result.groups.flat().filter((r) => !copies.flat().includes(r)), []);
});
