/**
 * Word lists the seeder draws users from. Order matters: the seeder favours the
 * start of each list (a skewed draw), so early entries are common search terms
 * and late ones uncommon, the way real user bases have many Smiths and few
 * Thistlethwaites.
 */

export const FIRST_NAMES = [
  "James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
  "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
  "Christopher", "Nancy", "Daniel", "Lisa", "Matthew", "Betty", "Anthony", "Margaret", "Mark", "Sandra",
  "Donald", "Ashley", "Steven", "Kimberly", "Paul", "Emily", "Andrew", "Donna", "Joshua", "Michelle",
  "Lars", "Mette", "Freja", "Rasmus", "Sofie", "Mads", "Ida", "Jonas", "Aiko", "Kenji",
  "Wei", "Mei", "Priya", "Arjun", "Lucas", "Camila", "Mateo", "Valentina", "Noah", "Zoe",
] as const;

export const LAST_NAMES = [
  "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
  "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
  "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
  "Walker", "Young", "Allen", "King", "Wright", "Scott", "Torres", "Nguyen", "Hill", "Flores",
  "Green", "Adams", "Nelson", "Baker", "Hall", "Rivera", "Campbell", "Mitchell", "Carter", "Roberts",
  "Jensen", "Nielsen", "Hansen", "Pedersen", "Andersen", "Christensen", "Larsen", "Sorensen", "Rasmussen", "Jorgensen",
  "Petersen", "Madsen", "Kristensen", "Olsen", "Thomsen", "Poulsen", "Johansen", "Knudsen", "Mortensen", "Moller",
  "Schmidt", "Muller", "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Schulz", "Hoffmann",
  "Kowalski", "Nowak", "Wisniewski", "Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo",
  "Dubois", "Durand", "Lefebvre", "Moreau", "Laurent", "Tanaka", "Suzuki", "Takahashi", "Watanabe", "Ito",
  "Kim", "Park", "Choi", "Chen", "Wang", "Li", "Zhang", "Liu", "Singh", "Kumar",
  "Patel", "Shah", "Silva", "Santos", "Oliveira", "Souza", "Costa", "Pereira", "Okafor", "Mensah",
] as const;

/**
 * Surnames given to about 1 user in 5,000 (each ~40 users per million): the
 * needle-in-a-haystack searches. No common name contains any of them.
 */
export const RARE_LAST_NAMES = ["Quisenberry", "Thistlethwaite", "Vanderwoude", "Okonkwo", "Zamudio"] as const;
export const RARE_LAST_NAME_SHARE = 0.0002;

/** gmail.com ~32 %, example.com ~13 %, down to gatehouse.dev ~5 %. */
export const DOMAINS = [
  "gmail.com", "example.com", "outlook.com", "yahoo.com", "icloud.com",
  "hotmail.com", "proton.me", "fastmail.com", "acme-corp.io", "gatehouse.dev",
] as const;

/** Share of users per status; the rest are active. */
export const BANNED_SHARE = 0.04;
export const DELETED_SHARE = 0.02;
/** Share of users whose email is verified; the rest signed up and never clicked the link. */
export const VERIFIED_SHARE = 0.85;
