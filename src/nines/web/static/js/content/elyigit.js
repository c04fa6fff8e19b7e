// Elyigit's Nines: how to play and where the game comes from, in English and French.

export default {
  en: {
    title: "Elyigit",
    how: {
      heading: ["Bid first,", "see later."],
      intro: "Four players in two fixed partnerships, North–South against East–West, with thirty-six cards: ace to nine in each suit, and the ace is the lowest card.",
      items: [
        ["The auction", "Each player in turn bids a number of tricks higher than the standing bid, or passes. A pass does not shut you out: the bidding comes round again. Bids run from five to nine, and three passes after a bid end it. If all four pass, the cards are thrown in and the next dealer deals."],
        ["Trumps, then the dummy", "The highest bidder becomes the declarer and names the trump suit. Only then does the declarer's partner spread all nine cards face up: the dummy. The declarer plays both hands, having committed on nine cards alone."],
        ["The compulsory play", "This is what sets the game apart. Holding the led suit, you must play it, and you must beat the best card of that suit on the table if you can. Void in it, you must trump, over-trumping any trump already down when you can, and under-trumping when you cannot. Only with neither may you play freely."],
        ["No favours for partner", "The rule binds you even when your partner is winning the trick: if your card beats theirs, it has to go on."],
        ["When the hand stops", "The declarers need their bid; the defenders need enough tricks to make it impossible, ten minus the bid. Play stops as soon as either side gets there, but never before the third trick."],
        ["Scoring", "A made contract scores its bid for the declarers, plus a point for each extra trick. A defeated one scores the bid for the defenders, plus a point for each trick short. The first side to fifty points wins the match."],
      ],
    },
    history: {
      heading: ["A void is", "worth a king."],
      items: [
        ["Nazmi Elyigit's rules", "The game comes from its author, Nazmi Elyigit, and is played here as he wrote it. Where his rules leave a point open (who leads first, what happens when nobody bids, how the match is scored), the table follows the standard choice and lets you pick another."],
        ["Family resemblance", "Its closest living relative is Turkish partnership Batak, with an auction, a declarer who names trumps and the duty to win the trick when you can. The dummy borrows from bridge."],
        ["What the solver found", "Played out exactly over many thousands of deals, the hands that take tricks are not the ones instinct favours. A void is the most valuable feature of a hand and a nine comes next; long suits are worth little, because compulsory trumping turns every void into a sure ruff."],
        ["Variants at the table", "You can play every trick out, let the declarer lead, give the dealer a forced contract when all pass, allow no trumps, or soften the compulsory rule in the manner of Belote or plain whist."],
      ],
    },
  },
  fr: {
    title: "Elyigit",
    how: {
      heading: ["Enchérir d'abord,", "voir ensuite."],
      intro: "Quatre joueurs en deux équipes fixes, Nord–Sud contre Est–Ouest, avec trente-six cartes : de l'as au neuf dans chaque couleur, l'as étant la plus petite carte.",
      items: [
        ["Les enchères", "Chacun à son tour annonce un nombre de levées supérieur à l'enchère en cours, ou passe. Passer n'exclut pas : les enchères reviennent. Les annonces vont de cinq à neuf, et trois passes après une enchère la closent. Si les quatre passent, on jette les cartes et le donneur suivant redistribue."],
        ["L'atout, puis le mort", "Le plus fort enchérisseur devient le déclarant et nomme l'atout. Seulement alors son partenaire étale ses neuf cartes face visible : c'est le mort. Le déclarant joue les deux mains, après s'être engagé sur ses neuf cartes seulement."],
        ["Le jeu obligatoire", "C'est ce qui distingue ce jeu. Si vous avez la couleur demandée, vous devez la fournir, et monter sur la meilleure carte de cette couleur déjà posée si vous le pouvez. Si vous ne l'avez pas, vous devez couper, en surcoupant l'atout déjà posé si possible, et en sous-coupant sinon. Ce n'est qu'à défaut des deux qu'on joue librement."],
        ["Aucune faveur au partenaire", "La règle s'applique même quand votre partenaire tient la levée : si votre carte bat la sienne, elle doit être jouée."],
        ["Quand la main s'arrête", "Les déclarants doivent faire leur enchère ; les défenseurs doivent rendre le contrat impossible, soit dix moins l'enchère. Le jeu s'arrête dès qu'un camp y parvient, mais jamais avant la troisième levée."],
        ["Le pointage", "Un contrat réussi rapporte l'enchère aux déclarants, plus un point par levée de mieux. Un contrat chuté rapporte l'enchère aux défenseurs, plus un point par levée de chute. Le premier camp à cinquante points gagne la partie."],
      ],
    },
    history: {
      heading: ["Une chicane vaut", "un roi."],
      items: [
        ["Les règles de Nazmi Elyigit", "Le jeu vient de son auteur, Nazmi Elyigit, et se joue ici tel qu'il l'a écrit. Là où ses règles laissent un point ouvert (qui entame, que faire si personne n'enchérit, comment compter la partie), la table suit le choix habituel et vous laisse en prendre un autre."],
        ["Un air de famille", "Son plus proche parent vivant est le Batak turc en équipes : des enchères, un déclarant qui nomme l'atout et l'obligation de prendre la levée quand on le peut. Le mort vient du bridge."],
        ["Ce qu'a trouvé le solveur", "En jouant exactement des milliers de donnes, on voit que les mains qui font des levées ne sont pas celles que l'instinct préfère. Une chicane est le meilleur atout d'une main, un neuf vient ensuite ; les longues couleurs valent peu, car la coupe obligatoire fait de chaque chicane une coupe assurée."],
        ["Des variantes à la table", "On peut jouer toutes les levées, faire entamer le déclarant, imposer un contrat au donneur quand tout le monde passe, permettre le sans-atout, ou adoucir l'obligation à la manière de la belote ou du whist."],
      ],
    },
  },
};
